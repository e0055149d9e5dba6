package io.mikyu.client;

import io.mikyu.protocol.ErrorCode;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** One request waiting for its answer: the frames of its result, or an error. */
final class PendingCall {

    /** The call's channel was lost before its answer came. */
    static final class Lost extends RuntimeException {
        Lost(String message) {
            super(message, null, false, false);
        }
    }

    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final List<ByteBuf> chunks = new ArrayList<>(1);
    private ErrorCode errorCode;
    private String errorMessage;
    private boolean abandoned;
    private boolean lost;

    synchronized void lost(String message) {
        if (!done.isDone()) {
            lost = true;
            errorMessage = message;
            done.complete(null);
        }
    }

    /** Adds a frame of the result; {@code false} if the caller has given up (the frame is then not kept). */
    synchronized boolean add(ByteBuf frame, boolean last) {
        if (abandoned) {
            return false;
        }
        chunks.add(frame);
        if (last) {
            done.complete(null);
        }
        return true;
    }

    synchronized void fail(ErrorCode code, String message) {
        if (!done.isDone()) {
            errorCode = code;
            errorMessage = message;
            done.complete(null);
        }
    }

    synchronized void abandon() {
        abandoned = true;
        chunks.forEach(ByteBuf::release);
        chunks.clear();
    }

    List<ByteBuf> await(long timeoutMillis) throws InterruptedException, TimeoutException {
        try {
            done.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
        synchronized (this) {
            if (lost) {
                chunks.forEach(ByteBuf::release);
                throw new Lost(errorMessage);
            }
            if (errorCode != null) {
                chunks.forEach(ByteBuf::release);
                // A fresh exception of the engine's type, thrown here so its stack trace shows the caller.
                throw errorCode.toException(errorMessage);
            }
            return chunks;
        }
    }
}
