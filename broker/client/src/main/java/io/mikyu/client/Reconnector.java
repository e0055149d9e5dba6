package io.mikyu.client;

import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces the lost channel of a {@link BrokerChannel}: dials again with backoff (100 ms doubling to 5 s) for up to
 * the {@code reconnect} option, sets up again on the new channel what the broker kept for the lost one
 * ({@link ChannelReplay}), gives back what the streams were pushed and never handed out, and only then lets calls
 * through. When that fails for good, the channel is closed.
 */
final class Reconnector {

    private static final Logger LOG = LoggerFactory.getLogger(Reconnector.class);
    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    private final BrokerChannel channel;
    private final ChannelReplay replay;
    private final StreamRegistry streams;

    Reconnector(BrokerChannel channel, ChannelReplay replay, StreamRegistry streams) {
        this.channel = channel;
        this.replay = replay;
        this.streams = streams;
    }

    /** Starts reconnecting on a thread of its own; {@code reason}: why the channel was lost. */
    void start(String reason) {
        Thread t = new Thread(() -> reconnect(reason), "mikyu-client-reconnect");
        t.setDaemon(true);
        t.start();
    }

    private void reconnect(String reason) {
        ClientOptions options = channel.options();
        LOG.warn("{}; reconnecting for up to {} ms", reason, options.reconnect().toMillis());
        long deadline = System.nanoTime() + options.reconnect().toNanos();
        long backoff = FIRST_BACKOFF_MILLIS;
        String last = reason;
        while (channel.isOpen()) {
            long remaining = (deadline - System.nanoTime()) / 1_000_000;
            if (remaining <= 0) {
                break;
            }
            try {
                Thread.sleep(Math.min(backoff, remaining));
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
                Channel ch = channel.dial();
                replay.replayOn(ch);
                streams.giveBackDropped(ch);
                channel.reconnected();
                LOG.info("reconnected to {}", channel.endpoint());
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                last = "interrupted";
                break;
            } catch (RuntimeException e) {
                last = e.getMessage();
                channel.closeCurrent();
            }
        }
        channel.couldNotReconnect(last);
    }
}
