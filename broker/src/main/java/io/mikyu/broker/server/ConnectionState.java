package io.mikyu.broker.server;

import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.security.Principal;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * A client connection's state on the broker, what its requests work on: who it authenticated as, the store, the
 * filter compilers, the shared groups the client opened, the claims it holds and its consumer streams. A shared
 * group is kept as opened, with its admission filter, so a member's later requests reach that same group (or fail
 * as closed once it is deleted, as an in-process handle does).
 */
final class ConnectionState {

    private final Mikyu mikyu;
    private final FilterCompilers filters;
    private final ConcurrentHashMap<String, SharedGroup> sharedGroups = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Deque<Claim>> claims = new ConcurrentHashMap<>();
    private volatile boolean ended;
    /** The message-group member of this connection's plain dequeues (its streams are members of their own). */
    final io.mikyu.engine.GroupMember groupMember = new io.mikyu.engine.GroupMember("connection");
    /** The consumer streams, if the handshake agreed on the feature; set before the first request is read. */
    private volatile ConnectionStreams streams;
    /** The large bodies, if the handshake agreed on the feature; set before the first request is read. */
    private volatile ConnectionBodies bodies;
    /** Who the handshake authenticated; set before the first request is read. */
    private volatile Principal principal = Principal.UNRESTRICTED;

    ConnectionState(Mikyu mikyu, FilterCompilers filters) {
        this.mikyu = mikyu;
        this.filters = filters;
    }

    Mikyu mikyu() {
        return mikyu;
    }

    Principal principal() {
        return principal;
    }

    void authenticated(Principal p) {
        this.principal = p;
    }

    void streams(ConnectionStreams value) {
        this.streams = value;
    }

    /** The connection's streams; a protocol error if the handshake did not agree on them. */
    ConnectionStreams streams() {
        ConnectionStreams s = streams;
        if (s == null) {
            throw new io.mikyu.protocol.MalformedFrameException("consumer streams need the streams feature, which"
                    + " this connection did not agree on in its handshake");
        }
        return s;
    }

    /** The connection's streams, or {@code null} without the feature. */
    ConnectionStreams streamsOrNull() {
        return streams;
    }

    void bodies(ConnectionBodies value) {
        this.bodies = value;
    }

    /** The connection's large bodies; a protocol error if the handshake did not agree on them. */
    ConnectionBodies bodies() {
        ConnectionBodies b = bodies;
        if (b == null) {
            throw new io.mikyu.protocol.MalformedFrameException("large bodies need the large-bodies feature, which"
                    + " this connection did not agree on in its handshake");
        }
        return b;
    }

    /** The connection's large bodies, or {@code null} without the feature. */
    ConnectionBodies bodiesOrNull() {
        return bodies;
    }

    TaskFilter filter(FilterExpression expression) {
        return filters.compile(expression);
    }

    void opened(String queue, String group, SharedGroup shared) {
        sharedGroups.put(key(queue, group), shared);
    }

    SharedGroup sharedGroup(String queue, String group) {
        SharedGroup g = sharedGroups.get(key(queue, group));
        if (g == null) {
            throw new IllegalStateException("shared group '" + group + "' of log queue '" + queue
                    + "' is not open on this connection: obtain it with sharedGroup(name, config) first");
        }
        return g;
    }

    /** Takes ownership of a claim the client took: released on request or when the connection ends. */
    void claimed(Claim claim) {
        claims.computeIfAbsent(claimKey(claim.name(), claim.mode()), k -> new ConcurrentLinkedDeque<>()).add(claim);
        if (ended) {
            releaseAll(); // the connection ended while the claim was being taken
        }
    }

    /** Releases one of this connection's claims on {@code name}; returns the holders left (any connection). */
    int release(String name, ClaimMode mode) {
        Deque<Claim> held = claims.get(claimKey(name, mode));
        Claim c = held == null ? null : held.poll();
        return c == null ? mikyu.claimHolders(name) : c.release();
    }

    /**
     * The connection ended: whatever it claimed is free again. Returns the names of the released claims that name
     * state to reclaim ({@link AbandonedJmsState#reclaims}).
     */
    List<String> releaseAll() {
        ended = true;
        List<String> reclaim = new ArrayList<>();
        for (Deque<Claim> held : claims.values()) {
            Claim c;
            while ((c = held.poll()) != null) {
                try {
                    c.release();
                    if (AbandonedJmsState.reclaims(c.name())) {
                        reclaim.add(c.name());
                    }
                } catch (RuntimeException storeClosed) {
                    // the store is gone, and its claims with it
                }
            }
        }
        return reclaim;
    }

    private static String claimKey(String name, ClaimMode mode) {
        return mode + "\u0000" + name;
    }

    private static String key(String queue, String group) {
        return queue + '\u0000' + group;
    }
}
