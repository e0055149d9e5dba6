package io.mikyu.broker.server;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.spi.AsyncDequeue;
import io.mikyu.protocol.ErrorCode;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.MalformedFrameException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One consumer stream on the broker ({@link io.mikyu.protocol.StreamDescriptor}): takes leased items from a task
 * queue or a shared group and pushes them to the client while it holds credit and its connection is writable.
 *
 * <p>The stream remembers what it pushed and the client has not reported taken ("outstanding"), in push order.
 * That list is what it renews (so items waiting in the client's buffer never expire into duplicates while the
 * connection lives), what it gives back undelivered when the client closes the stream, and what it keeps leased
 * when the stream ends otherwise ({@link OutstandingOnClose}).
 *
 * <p>Threads: a stream of a task queue takes on the connection's event loop ({@link AsyncDequeue}): a take leases
 * what is ready and its completion pushes it and takes again; when nothing is ready the queue calls the stream
 * back once something may be. No thread waits for it, and a delivery costs no thread wake-up beyond the event
 * loop's. If the queue has due work to apply first (redeliveries, dead letters: writes that wait), one blocking
 * take on the waiting pool does it. Other streams (shared groups) pump on the waiting pool. Either way the stream
 * runs only while there is room (credit, writability); it stops by itself and is started again by a credit, the
 * connection turning writable, the queue's call, or the broker's stream timer. At most one pump or take chain
 * runs per stream, so the stream's frames leave in the order of its outstanding list.
 *
 * <p>Alone: a lost connection's outstanding items all have an attempt counted (see {@link OutstandingOnClose}), also
 * those still in the client's buffer when a message killed its consumer. So that such neighbours do not burn their
 * attempts with a poison round after round, an item whose previous counted lease ran out without a word from its
 * holder ({@link PushSource#pushAlone}) goes out on its own: once nothing else is outstanding, with nothing behind it,
 * and after its CREDIT nothing more is pushed until it is settled (acked, nacked, given back: {@link PushSource#holds}
 * says, checked by the stream timer) or {@link #MAX_WATCH} passed. Only the message whose consumers die keeps
 * dying with them. Items whose leases ended otherwise (the normal case has none) are pushed as usual.
 */
final class PushStream<T> {

    private static final Logger LOG = LoggerFactory.getLogger(PushStream.class);

    /**
     * How long one engine call of the pump waits for data. A closed stream's pump notices within this; items it
     * took meanwhile are given back at once. Short enough to free the thread soon, long enough to cost nothing idle.
     */
    static final Duration WAIT_SLICE = Duration.ofMillis(500);
    /** The most items one engine call takes, whatever the credit. */
    static final int MAX_BATCH = 256;
    /** The most items the first engine call takes, before the stream knows how large its items are. */
    static final int FIRST_BATCH = 16;
    /** The most bytes (estimated from earlier items) one engine call takes: bounds a batch in broker memory. */
    static final long MAX_BATCH_BYTES = 1 << 20;
    /**
     * The longest the stream waits, after an item pushed alone was taken, for it to be settled: a consumer that dies
     * of a message dies soon after it is handed it, and one that holds it unacknowledged (acknowledging several at
     * once) is kept waiting only this long. At most half the stream's lease.
     */
    static final Duration MAX_WATCH = Duration.ofSeconds(1);
    /** The longest a close waits for an async take under way (its lease write) before it answers regardless. */
    static final Duration CLOSE_WAITS_FOR_TAKE = Duration.ofSeconds(2);

    private final int id;
    private final String what;
    private final BrokerServer server;
    private final Channel channel;
    private final int maxFrameBytes;
    private final PushSource<T> source;
    private final Duration lease;
    private final int credit;
    private final long creditBytes;
    /** Told once when the stream is over, to forget it. */
    private final Runnable onClose;

    // Guarded by this.
    private final ArrayDeque<PushedItem> outstanding = new ArrayDeque<>();
    private long outstandingBytes;
    private boolean closed;
    private boolean running;
    /**
     * An async take is under way: its items are leased (or being leased) and not yet pushed or given back. A close
     * from a worker waits for them ({@link #close(OutstandingOnClose)}), so its answer follows their give-back.
     */
    private boolean taking;
    /** A close waits for the take under way: the take hands its items here instead of giving them back itself. */
    private List<LeaseToken> closerTakes;
    /** Average encoded size of the items pushed so far; 0 before the first. */
    private long averageItemBytes;
    /** An item did not fit the byte credit: take nothing until a credit frees some (no take-and-give-back loop). */
    private boolean full;
    /** An item that goes alone was taken from a batch behind others: take nothing until they are all taken. */
    private boolean drainFirst;
    /** The item pushed alone, while outstanding: nothing is pushed behind it. */
    private PushedItem alone;
    /** The item pushed alone, once the client took it: nothing is pushed until it is settled or the watch ends. */
    private LeaseToken watched;
    /** When the watch of {@link #watched} ends (steady millis); 0 until the stream timer first sees it. */
    private long watchedUntil;
    /** Registered with an async source while nothing is ready: the next step runs on the event loop. */
    private final Runnable whenReady = () -> onLoop(this::kick);

    PushStream(int id, String what, BrokerServer server, Channel channel, int maxFrameBytes, PushSource<T> source,
               Duration lease, int credit, long creditBytes, Runnable onClose) {
        this.id = id;
        this.what = what;
        this.server = server;
        this.channel = channel;
        this.maxFrameBytes = maxFrameBytes;
        this.source = source;
        this.lease = lease;
        this.credit = credit;
        this.creditBytes = creditBytes;
        this.onClose = onClose;
    }

    int id() {
        return id;
    }

    /** How many items to take now; 0 when there is no room (closed, not writable, no credit). */
    private int room() {
        if (closed || !channel.isActive() || !channel.isWritable()) {
            return 0;
        }
        int messages = credit - outstanding.size();
        long bytesLeft = creditBytes - outstandingBytes;
        if (messages <= 0 || bytesLeft <= 0 || full) {
            return 0;
        }
        if (alone != null || watched != null) {
            return 0;
        }
        if (drainFirst) {
            // the item that goes alone is next: one take, once what was pushed before it is taken
            return outstanding.isEmpty() ? 1 : 0;
        }
        if (!outstanding.isEmpty() && bytesLeft < averageItemBytes) {
            return 0;   // the next item would most likely not fit
        }
        if (averageItemBytes == 0) {
            // Sizes not known yet: a few, and what passes the byte credit goes back (not counted as attempts).
            return Math.min(messages, FIRST_BATCH);
        }
        long byBytes = Math.max(1, Math.min(bytesLeft, MAX_BATCH_BYTES) / averageItemBytes);
        return (int) Math.min(Math.min(messages, MAX_BATCH), byBytes);
    }

    /** The room for the next take; 0 when there is none, and then the pump (or take chain) has stopped. */
    private synchronized int roomOrStop() {
        int n = room();
        if (n == 0) {
            running = false;
        }
        return n;
    }

    /** Starts the pump (or the take chain) if there is room and it is not running. Any thread. */
    void kick() {
        synchronized (this) {
            if (running || room() == 0) {
                return;
            }
            running = true;
        }
        if (source.takesAsync()) {
            if (channel.eventLoop().inEventLoop()) {
                step();
            } else if (!onLoop(this::step)) {
                synchronized (this) {
                    running = false;
                }
            }
            return;
        }
        onWaitingPool(() -> pump(false));
    }

    private void onWaitingPool(Runnable work) {
        try {
            server.waiters().execute(work);
        } catch (RejectedExecutionException e) {
            // No thread free now: the stream timer tries again.
            synchronized (this) {
                running = false;
            }
        }
    }

    /** Runs {@code work} on the connection's event loop; false if that is shut down (the connection is gone). */
    private boolean onLoop(Runnable work) {
        try {
            channel.eventLoop().execute(work);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** On the event loop: the next take of an async source; its completion pushes and steps again. */
    private void step() {
        int n = roomOrStop();
        if (n == 0) {
            return;
        }
        AsyncDequeue.Start start;
        synchronized (this) {
            taking = true; // its completion runs on this event loop, after this step
        }
        try {
            start = source.tryTake(n, lease, channel.eventLoop(), this::taken, this::failOffLoop, whenReady);
        } catch (RuntimeException e) {
            takeEnded();
            failOffLoop(e);
            return;
        }
        switch (start) {
            case TAKEN -> {
                // taken() goes on
            }
            case WAITING -> {
                // whenReady may already have run: its kick is queued behind this step on the same event loop
                synchronized (this) {
                    running = false;
                }
                takeEnded();
            }
            case DECLINED -> {
                takeEnded();
                onWaitingPool(() -> pump(true));
            }
        }
    }

    /** On the event loop: a take's items, leased and written. */
    private void taken(List<T> items) {
        try {
            if (!items.isEmpty()) {
                push(items, true);
            }
        } catch (RuntimeException e) {
            failOffLoop(e);
            return;
        } finally {
            takeEnded();
        }
        step();
    }

    /** The take under way is over: its items were pushed or given back (or there were none). */
    private synchronized void takeEnded() {
        if (taking) {
            taking = false;
            notifyAll();
        }
    }

    /** Ends the stream from the event loop: giving items back writes and waits, so a worker does it. */
    private void failOffLoop(Throwable e) {
        try {
            server.workers().execute(() -> fail(e));
        } catch (RejectedExecutionException rejected) {
            fail(e);
        }
    }

    /**
     * On the waiting pool: takes while there is room, each take waiting up to {@link #WAIT_SLICE}; {@code once}: one
     * take without waiting (the queue's due work, which writes and waits), and then the event loop again.
     */
    private void pump(boolean once) {
        try {
            do {
                int n = roomOrStop();
                if (n == 0) {
                    return;
                }
                List<T> items = source.take(n, lease, once ? Duration.ZERO : WAIT_SLICE);
                if (!items.isEmpty()) {
                    push(items, false);
                }
            } while (!once);
        } catch (InterruptedException e) {
            fail(new StoreClosedException(server.isStopping() ? "the broker is stopping" : "the stream was cancelled"));
            return;
        } catch (Throwable e) {
            if (!(e instanceof RuntimeException)) {
                LOG.error("stream {} on {} failed", id, what, e);
            }
            fail(e);
            return;
        }
        synchronized (this) {
            running = false;
        }
        kick();
    }

    /**
     * Writes {@code items} as DELIVERY frames, as many as the byte credit allows; gives the rest back (from a
     * worker if {@code onLoop}: that writes and waits).
     */
    private void push(List<T> items, boolean onLoop) {
        long budget;
        int held;
        synchronized (this) {
            budget = creditBytes - outstandingBytes;
            held = outstanding.size();
        }
        // An item that goes alone: what is before it goes now; it goes first of a later take, on its own.
        int limit = items.size();
        boolean pushingAlone = false;
        for (int i = 0; i < items.size(); i++) {
            if (source.pushAlone(items.get(i))) {
                if (i == 0 && held == 0) {
                    limit = 1;
                    pushingAlone = true;
                } else {
                    limit = i;
                }
                break;
            }
        }
        List<LeaseToken> declined = new ArrayList<>(items.size() - limit);
        for (int j = limit; j < items.size(); j++) {
            declined.add(source.token(items.get(j)));
        }
        DeliveryFrames batch = DeliveryFrames.encode(channel.alloc(), id, maxFrameBytes, source, items, limit,
                budget, held);
        List<PushedItem> accepted = batch.accepted;
        List<LeaseToken> over = batch.over;
        boolean sent = false;
        boolean toCloser = false;
        synchronized (this) {
            if (!over.isEmpty() && batch.tooLarge == null) {
                full = true;
            }
            // declined items behind those pushed now: the one that goes alone waits until they are taken
            drainFirst = !declined.isEmpty() && !pushingAlone;
            if (!closed && !accepted.isEmpty()) {
                if (pushingAlone) {
                    alone = accepted.get(0);
                }
                outstanding.addAll(accepted);
                outstandingBytes += batch.bytes;
                long average = batch.bytes / accepted.size();
                averageItemBytes = averageItemBytes == 0 ? average : (averageItemBytes * 3 + average) / 4;
                // Written under the lock: a close that follows sees them outstanding, and its answer follows them.
                for (ByteBuf f : batch.frames) {
                    channel.write(f);
                }
                channel.flush();
                sent = true;
            } else if (closed && closerTakes != null) {
                // A close waits for this take: it gives the items back before it answers.
                for (PushedItem p : accepted) {
                    closerTakes.add(p.token);
                }
                closerTakes.addAll(over);
                closerTakes.addAll(declined);
                toCloser = true;
            }
        }
        if (toCloser) {
            batch.frames.forEach(ByteBuf::release);
            return;
        }
        if (!sent) {
            batch.frames.forEach(ByteBuf::release);
            for (PushedItem p : accepted) {
                over.add(p.token);
            }
        }
        over.addAll(declined);
        if (onLoop && !over.isEmpty()) {
            try {
                server.workers().execute(() -> giveBack(over));
            } catch (RejectedExecutionException e) {
                giveBack(over);
            }
        } else {
            giveBack(over);
        }
        if (batch.tooLarge != null) {
            throw batch.tooLarge;
        }
    }

    /** The client took the oldest {@code messages} outstanding items. On the event loop. */
    void credit(int messages) {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (messages > outstanding.size()) {
                throw new MalformedFrameException("credit for " + messages + " messages on stream " + id
                        + ", which has " + outstanding.size() + " outstanding");
            }
            for (int i = 0; i < messages; i++) {
                PushedItem taken = outstanding.removeFirst();
                outstandingBytes -= taken.bytes;
                if (taken == alone) {
                    alone = null;
                    watched = taken.token;
                    watchedUntil = 0;
                }
            }
            full = false;
        }
        kick();
    }

    /** The client closed the stream: no more pushes; what it did not take goes back undelivered. Idempotent; blocks. */
    void close() {
        close(OutstandingOnClose.GIVE_BACK);
    }

    /**
     * Ends the stream; {@code outstanding} says what becomes of the items the client has not reported taken. Giving
     * them back, off the event loop, it first waits (briefly) for an async take under way, whose items then go back
     * too: a client closing a consumer's stream is answered only once nothing of it is left leased (else items given
     * back to the queue just before the close, taken again by this stream, would still be leased right after it).
     */
    void close(OutstandingOnClose outstandingItems) {
        List<LeaseToken> back = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (PushedItem p : outstanding) {
                if (!p.stale) {
                    back.add(p.token);
                }
            }
            outstanding.clear();
            outstandingBytes = 0;
            if (taking && outstandingItems == OutstandingOnClose.GIVE_BACK && !channel.eventLoop().inEventLoop()) {
                closerTakes = new ArrayList<>();
                long deadline = System.nanoTime() + CLOSE_WAITS_FOR_TAKE.toNanos();
                try {
                    long left;
                    while (taking && (left = deadline - System.nanoTime()) > 0) {
                        TimeUnit.NANOSECONDS.timedWait(this, left);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                back.addAll(closerTakes);
                closerTakes = null;
            }
        }
        try {
            source.cancelWhenReady(whenReady);
        } catch (RuntimeException ignored) {
            // the queue is gone, and its registrations with it
        }
        onClose.run();
        switch (outstandingItems) {
            case GIVE_BACK -> giveBack(back);
            case KEEP_LEASED -> {
            }
        }
    }

    /** The engine refused the stream's work (queue deleted, broker stopping): end it and tell the client. */
    private void fail(Throwable e) {
        synchronized (this) {
            running = false;
            if (closed) {
                return;
            }
        }
        LOG.debug("stream {} on {} ends: {}", id, what, e.toString());
        if (channel.isActive()) {
            ByteBuf out = FrameDescriptor.writeHeader(channel.alloc().buffer(), FrameDescriptor.ERROR,
                    FrameDescriptor.FLAG_STREAM, id);
            out.writeShort(ErrorCode.of(e).code());
            Fields.writeString(out, ErrorCode.messageOf(e));
            synchronized (this) {
                channel.writeAndFlush(out);
            }
        }
        try {
            // Credits may be on their way: keep what is outstanding leased (see OutstandingOnClose).
            close(OutstandingOnClose.KEEP_LEASED);
        } catch (RuntimeException ignored) {
            // the store is gone: the leases run out
        }
    }

    private void giveBack(List<LeaseToken> tokens) {
        if (tokens.isEmpty()) {
            return;
        }
        try {
            source.returnUndelivered(tokens);
        } catch (StaleLeaseException e) {
            // One lease ended meanwhile (and its item went elsewhere): give back the others one by one.
            for (LeaseToken t : tokens) {
                try {
                    source.returnUndelivered(List.of(t));
                } catch (RuntimeException ignored) {
                    // that one is not ours any more
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("stream {} on {}: giving back {} items failed, their leases will run out: {}", id, what,
                    tokens.size(), e.toString());
        }
    }

    /**
     * From the broker's stream timer: renews the leases of outstanding items whose lease is half gone (they wait
     * in the client's buffer of a live connection), and restarts a pump that found no thread.
     */
    void tick(long now) {
        List<PushedItem> due = new ArrayList<>();
        LeaseToken watching;
        synchronized (this) {
            if (closed) {
                return;
            }
            watching = watched;
            if (watching != null && watchedUntil == 0) {
                watchedUntil = now + Math.min(MAX_WATCH.toMillis(), lease.toMillis() / 2);
            }
            long threshold = now + lease.toMillis() / 2;
            for (PushedItem p : outstanding) {
                if (!p.stale && p.leaseUntil < threshold) {
                    due.add(p);
                }
            }
        }
        if (!due.isEmpty()) {
            // One write for all of them: renewing one by one, a slow disk let the timer fall behind the leases.
            List<LeaseToken> tokens = new ArrayList<>(due.size());
            for (PushedItem p : due) {
                tokens.add(p.token);
            }
            try {
                long[] until = source.extend(tokens, lease);
                synchronized (this) {
                    for (int i = 0; i < until.length; i++) {
                        if (until[i] < 0) {
                            due.get(i).stale = true;
                        } else {
                            due.get(i).leaseUntil = until[i];
                        }
                    }
                }
            } catch (RuntimeException e) {
                LOG.debug("stream {} on {}: renewing {} leases failed: {}", id, what, due.size(), e.toString());
            }
        }
        if (watching != null) {
            boolean over;
            synchronized (this) {
                over = now >= watchedUntil;
            }
            if (!over) {
                try {
                    over = !source.holds(watching);
                } catch (RuntimeException e) {
                    over = true;   // cannot tell: push as usual
                }
            }
            if (over) {
                synchronized (this) {
                    if (watched == watching) {
                        watched = null;
                    }
                }
            }
        }
        kick();
    }

    /** Items outstanding now: for tests and metrics. */
    synchronized int outstanding() {
        return outstanding.size();
    }

    @Override
    public String toString() {
        return "PushStream[" + id + " on " + what + "]";
    }
}
