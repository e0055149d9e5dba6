package io.mikyu.broker.server;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.spi.AsyncDequeue;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/** Where a stream's items come from: a task queue or a shared group, with a filter and a lease fixed. */
interface PushSource<T> {
    List<T> take(int max, Duration lease, Duration wait) throws InterruptedException;

    LeaseToken token(T item);

    long leaseExpiresAt(T item);

    void write(ByteBuf buf, T item);

    void returnUndelivered(List<LeaseToken> tokens);

    /** Extends several leases, in one write where the store allows; -1 for a lease that no longer holds. */
    long[] extend(List<LeaseToken> tokens, Duration lease);

    /** Whether {@link #tryTake} may start takes; if not, the stream pumps on a thread of the waiting pool. */
    default boolean takesAsync() {
        return false;
    }

    /** As {@link AsyncDequeue#tryDequeueAsync}: a take holding no thread, for sources that {@link #takesAsync}. */
    default AsyncDequeue.Start tryTake(int max, Duration lease, Executor continuation, Consumer<List<T>> taken,
                                       Consumer<RuntimeException> failed, Runnable whenReady) {
        return AsyncDequeue.Start.DECLINED;
    }

    default void cancelWhenReady(Runnable whenReady) {
    }

    /**
     * Whether the item goes to the client on its own ({@link PushStream}'s "alone"): its previous counted lease
     * ran out with no word from its holder, so its consumer may have died of it.
     */
    default boolean pushAlone(T item) {
        return false;
    }

    /** Whether the lease of {@code token} still holds (not settled, not ended); a read only. */
    default boolean holds(LeaseToken token) {
        return false;
    }
}
