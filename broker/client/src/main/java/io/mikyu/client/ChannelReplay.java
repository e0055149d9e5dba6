package io.mikyu.client;

import io.mikyu.engine.StoreClosedException;
import io.mikyu.protocol.Op;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * What the broker keeps for a {@link BrokerChannel} and drops when the connection ends: the shared groups it
 * opened (they carry an admission filter) and the claims it holds. Remembered here, to be set up again on the new
 * channel after a reconnect, before any call goes through.
 */
final class ChannelReplay {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelReplay.class);

    private final BrokerChannel channel;
    /** How to open again each shared group opened on this channel ("queue\0group"). */
    private final ConcurrentHashMap<String, Consumer<ByteBuf>> sharedGroups = new ConcurrentHashMap<>();
    private final Set<RemoteClaim> claims = ConcurrentHashMap.newKeySet();

    ChannelReplay(BrokerChannel channel) {
        this.channel = channel;
    }

    /** Remembers how a shared group was opened, to open it again after a reconnect. */
    void opened(String queue, String group, Consumer<ByteBuf> args) {
        sharedGroups.put(queue + "\0" + group, args);
    }

    void forgetGroup(String queue, String group) {
        sharedGroups.remove(queue + "\0" + group);
    }

    void forgetQueue(String queue) {
        sharedGroups.keySet().removeIf(k -> k.startsWith(queue + "\0"));
    }

    void claimed(RemoteClaim claim) {
        claims.add(claim);
    }

    void released(RemoteClaim claim) {
        claims.remove(claim);
    }

    /**
     * On the new channel {@code ch}: opens the shared groups again and takes the claims again. One the broker
     * refuses is forgotten (a claim someone else took meanwhile is lost); losing {@code ch} meanwhile throws
     * {@link StoreClosedException}, for the reconnect to try again.
     */
    void replayOn(Channel ch) throws InterruptedException {
        for (Map.Entry<String, Consumer<ByteBuf>> g : sharedGroups.entrySet()) {
            try {
                channel.callOn(ch, Op.SHARED_OPEN, g.getValue());
            } catch (PendingCall.Lost e) {
                throw new StoreClosedException(e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("after reconnecting to {}: shared group {} not opened again: {}", channel.endpoint(),
                        g.getKey().replace('\0', '/'), e.toString());
                sharedGroups.remove(g.getKey(), g.getValue());
            }
        }
        for (RemoteClaim c : List.copyOf(claims)) {
            try {
                channel.callOn(ch, Op.CLAIM, c::writeArgs);
            } catch (PendingCall.Lost e) {
                throw new StoreClosedException(e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("after reconnecting to {}: claim on '{}' not taken again: {}", channel.endpoint(),
                        c.name(), e.toString());
                claims.remove(c);
                c.lost();
            }
        }
    }
}
