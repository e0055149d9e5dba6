package io.mikyu.client;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.protocol.ErrorCode;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.Op;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The consumer streams of a {@link BrokerChannel}: by the id DELIVERY frames carry, and by what they serve
 * ({@link ClientStream.Key}). Closes the idle ones, tells them of a lost or closed channel, and after a reconnect
 * gives back what they had been pushed and never handed out.
 */
final class StreamRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(StreamRegistry.class);

    /** How long closing a channel waits for the broker to answer its streams' closes. */
    private static final long CLOSE_STREAMS_MILLIS = 5_000;

    private final BrokerChannel channel;
    private final ConcurrentHashMap<Integer, ClientStream<?>> streamsById = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ClientStream.Key, ClientStream<?>> streamsByKey = new ConcurrentHashMap<>();
    private final AtomicInteger streamIds = new AtomicInteger();

    StreamRegistry(BrokerChannel channel) {
        this.channel = channel;
    }

    /**
     * The stream serving {@code key}, made by {@code factory} if there is none. Opening one closes the idle streams
     * of the same queue first, so what they buffered is free for it (a consumer whose selector changed).
     */
    @SuppressWarnings("unchecked")
    <T> ClientStream<T> stream(ClientStream.Key key, Function<ClientStream.Key, ClientStream<T>> factory) {
        ClientStream<?> s = streamsByKey.get(key);
        if (s == null) {
            closeIdle(key.queue(), 0, true);
            ClientStream<T> made = factory.apply(key);
            s = streamsByKey.putIfAbsent(key, made);
            if (s == null) {
                s = made;
            }
        }
        return (ClientStream<T>) s;
    }

    /** The stream serving {@code key}, or {@code null}. */
    @SuppressWarnings("unchecked")
    <T> ClientStream<T> existing(ClientStream.Key key) {
        return (ClientStream<T>) streamsByKey.get(key);
    }

    int nextId() {
        int id;
        do {
            id = streamIds.incrementAndGet();
        } while (id == FrameDescriptor.CONNECTION_ID);
        return id;
    }

    void register(int id, ClientStream<?> stream) {
        streamsById.put(id, stream);
    }

    void forget(int id, ClientStream<?> stream) {
        streamsById.remove(id, stream);
    }

    boolean isEmpty() {
        return streamsByKey.isEmpty();
    }

    /** A DELIVERY frame, on the event loop; {@code false} if it was not kept (release it). */
    boolean delivered(int id, ByteBuf frame) {
        ClientStream<?> stream = streamsById.get(id);
        return stream != null && stream.delivered(frame);
    }

    /** An ERROR frame that ends stream {@code id}. */
    void ended(int id, ErrorCode code, String message) {
        ClientStream<?> stream = streamsById.remove(id);
        if (stream != null && code == ErrorCode.STORE_CLOSED) {
            stream.endedByBroker();     // the broker is stopping: open again, maybe elsewhere
        } else if (stream != null) {
            stream.fail(code.toException(message));
            streamsByKey.remove(stream.key(), stream);
        }
    }

    /**
     * Closes the streams nobody waits on and nobody took from for {@code idleNanos}: of queue {@code queue}, or of
     * every queue if it is null; not those of a message-group member that is still open, at once ({@code idleNanos}
     * 0) or once it took a grouped item. The broker gives back what they buffered; {@code await}: before this
     * returns (not on the event loop).
     */
    void closeIdle(String queue, long idleNanos, boolean await) {
        if (streamsByKey.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        for (ClientStream<?> s : streamsByKey.values()) {
            if (queue != null && !queue.equals(s.key().queue())) {
                continue;
            }
            if (s.key().member() instanceof io.mikyu.engine.GroupMember m && !m.isClosed()
                    && (idleNanos == 0 || s.holdsGroups())) {
                // Closing an open member's stream would give its groups away (the broker's member is the stream):
                // at once, that is another consumer's doing; when idle, it would move a group whose message the
                // member may still be handing out while its lease ends, and the next copy would go to another one.
                continue;
            }
            int id = s.closeIfIdle(now, idleNanos);
            if (id < 0) {
                continue;
            }
            streamsByKey.remove(s.key(), s);
            if (id > 0) {
                streamsById.remove(id, s);
                if (await) {
                    try {
                        channel.call(Op.STREAM_CLOSE, b -> b.writeInt(id), b -> null);
                    } catch (RuntimeException e) {
                        LOG.debug("closing stream {} on {}: {}", id, channel.endpoint(), e.toString());
                    }
                } else {
                    channel.sendWithoutAnswer(Op.STREAM_CLOSE, b -> b.writeInt(id));
                }
            }
        }
    }

    /**
     * Before the channel closes: the streams nobody waits on are closed with the broker, each close answered, so
     * what this side never took goes back undelivered at once (not counted as an attempt). A connection that just
     * ends leaves the broker unable to tell those items from ones whose CREDIT was lost with it: it keeps them all
     * leased until their leases end. Waits at most {@value #CLOSE_STREAMS_MILLIS} ms.
     */
    void closeBeforeClosing() {
        List<Integer> open = new ArrayList<>();
        long now = System.nanoTime();
        for (ClientStream<?> s : streamsByKey.values()) {
            int id = s.closeIfIdle(now, 0);
            if (id < 0) {
                continue;
            }
            streamsByKey.remove(s.key(), s);
            if (id > 0) {
                streamsById.remove(id, s);
                open.add(id);
            }
        }
        if (open.isEmpty()) {
            return;
        }
        Thread closer = new Thread(() -> {
            for (int id : open) {
                try {
                    channel.call(Op.STREAM_CLOSE, b -> b.writeInt(id), b -> null);
                } catch (RuntimeException e) {
                    LOG.debug("closing stream {} on {} before closing: {}", id, channel.endpoint(), e.toString());
                    return;
                }
            }
        }, "mikyu-client-close-streams");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(CLOSE_STREAMS_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The channel was lost: each stream keeps what it must give back, and opens again on its next take. */
    void lost() {
        for (ClientStream<?> s : streamsByKey.values()) {
            s.lost();
        }
        // A stream still opening keeps its id: its open may yet be answered on the next channel (see ClientStream).
        streamsById.entrySet().removeIf(e -> !e.getValue().opening(e.getKey()));
    }

    /** Closed for good: waiting takers get {@code closed}. */
    void failAll(StoreClosedException closed) {
        for (ClientStream<?> s : streamsByKey.values()) {
            s.fail(closed);
        }
        streamsByKey.clear();
        streamsById.clear();
    }

    /** After a reconnect, on the new channel {@code ch}: each stream gives back what it was pushed and never took. */
    void giveBackDropped(Channel ch) throws InterruptedException {
        for (ClientStream<?> s : List.copyOf(streamsByKey.values())) {
            ClientStream.GiveBack back = s.giveBack();
            if (back != null) {
                giveBack(back, ch);
                s.givenBack(back.tokens());
            }
        }
    }

    /**
     * A token the broker no longer honours (it gave the items back itself when it saw the connection close, or
     * their lease ended) needs nothing more; one such token refuses the whole request, so the rest go one by one.
     */
    private void giveBack(ClientStream.GiveBack back, Channel ch) throws InterruptedException {
        try {
            giveBack(back, back.tokens(), ch);
        } catch (StaleLeaseException stale) {
            for (LeaseToken t : back.tokens()) {
                try {
                    giveBack(back, List.of(t), ch);
                } catch (StaleLeaseException gone) {
                    // given back by the broker already, or its lease ended
                }
            }
        } catch (StoreClosedException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.debug("after reconnecting to {}: giving back {} pushed items failed, their leases will run out: {}",
                    channel.endpoint(), back.tokens().size(), e.toString());
        }
    }

    private void giveBack(ClientStream.GiveBack back, List<LeaseToken> tokens, Channel ch)
            throws InterruptedException {
        try {
            channel.callOn(ch, back.op(), b -> back.args().accept(b, tokens));
        } catch (PendingCall.Lost e) {
            throw new StoreClosedException(e.getMessage());
        }
    }
}
