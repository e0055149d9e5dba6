package io.mikyu.client;

import io.mikyu.protocol.ErrorCode;
import io.mikyu.protocol.FrameDescriptor;
import io.netty.buffer.ByteBuf;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The call correlation of a {@link BrokerChannel}: each request gets an id, and the event loop files the broker's
 * answer under it for the thread that waits ({@link PendingCall}), so many calls are in flight at once.
 */
final class PendingCalls {

    private final ConcurrentHashMap<Integer, PendingCall> calls = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();

    /** A new request id; never the one connection-level frames use. */
    int nextId() {
        int id;
        do {
            id = ids.incrementAndGet();
        } while (id == FrameDescriptor.CONNECTION_ID);
        return id;
    }

    /** Starts waiting for the answer to request {@code id}. */
    PendingCall register(int id) {
        PendingCall call = new PendingCall();
        calls.put(id, call);
        return call;
    }

    /** Stops waiting for request {@code id}; the call, or {@code null} if it was answered or dropped already. */
    PendingCall remove(int id) {
        return calls.remove(id);
    }

    /** A RESULT frame, on the event loop; {@code false} if it was not kept (release it). */
    boolean result(int id, ByteBuf frame, boolean more) {
        PendingCall call = more ? calls.get(id) : calls.remove(id);
        return call != null && call.add(frame, !more);
    }

    /** An ERROR frame answering request {@code id}. */
    void error(int id, ErrorCode code, String message) {
        PendingCall call = calls.remove(id);
        if (call != null) {
            call.fail(code, message);
        }
    }

    /** The channel was lost: every call in flight learns it (and is repeated where harmless). */
    void loseAll(String reason) {
        for (Integer id : List.copyOf(calls.keySet())) {
            PendingCall call = calls.remove(id);
            if (call != null) {
                call.lost(reason);
            }
        }
    }

    /** Closed for good: every call in flight fails with STORE_CLOSED. */
    void failAll(String reason) {
        for (Integer id : List.copyOf(calls.keySet())) {
            PendingCall call = calls.remove(id);
            if (call != null) {
                call.fail(ErrorCode.STORE_CLOSED, reason);
            }
        }
    }
}
