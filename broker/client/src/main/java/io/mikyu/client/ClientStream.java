package io.mikyu.client;

import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.MalformedFrameException;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The client's end of a consumer stream ({@link io.mikyu.protocol.StreamDescriptor}): a buffer the broker pushes
 * leased items into while this side holds credit, and callers of {@code dequeue} / {@code fetch} take from in push
 * order. Taking {@code n} items sends a CREDIT of {@code n}, which both tells the broker those items now belong to
 * the application and lets it push {@code n} more.
 *
 * <p>The broker renews the leases of what waits here and gives it back when the stream or the connection closes,
 * so this side never returns tokens itself: a closed or lost stream just drops its buffer. Frames are kept as they
 * came and decoded by the taking thread, as answers are.
 *
 * <p>Lifecycle: opened by the first taker ({@link State#NEW}); reopened under a new id by the next taker after the
 * channel was lost ({@link State#LOST}); closed by the connection's timer once nobody has taken from it for
 * {@code streamIdle}, or when another stream on its queue opens or the queue is browsed while nobody waits on it;
 * the stream of an open message-group member that took a grouped item only when the member closes.
 */
final class ClientStream<T> {

    /** What a stream serves; callers with equal keys share one stream (and its buffer). */
    /** {@code member}: the message-group member that takes from it (its own stream), or {@code null}. */
    record Key(Op op, String queue, String group, FilterExpression filter, long leaseMillis, Object member) {
    }

    enum State { NEW, OPENING, OPEN, LOST, CLOSED }

    /** Pushed frames, each with the count of items not yet taken; the body is positioned at the next item. */
    private static final class Chunk {
        final ByteBuf body;
        int left;

        Chunk(ByteBuf body, int left) {
            this.body = body;
            this.left = left;
        }
    }

    private final BrokerChannel channel;
    private final Key key;
    /** Writes the open request's body for a stream id. */
    private final BiConsumer<ByteBuf, Integer> openArgs;
    private final Function<ByteBuf, T> decoder;
    private final int minItemBytes;
    /** How to give back pushed items nobody took: the request, its arguments for tokens, an item's token. */
    private final Op returnOp;
    private final BiConsumer<ByteBuf, List<LeaseToken>> returnArgs;
    private final Function<T, LeaseToken> tokenOf;

    // Guarded by this.
    private final ArrayDeque<Chunk> chunks = new ArrayDeque<>();
    private int buffered;
    private int waiters;
    private long lastUsedNanos = System.nanoTime();
    private State state = State.NEW;
    private int id;
    private RuntimeException failure;
    /**
     * Tokens of pushed items the application never took, dropped with a lost channel (or a stream the stopping
     * broker ended). A stopping broker keeps them leased (it cannot know which were taken: a CREDIT may be unread),
     * so after the reconnect this side gives them back, and they are ready at once instead of when their leases end.
     */
    private final List<LeaseToken> dropped = new ArrayList<>();
    /**
     * A message-group member took a grouped item from this stream: on the broker the member is the stream, and it
     * owns that group until the stream closes. Such a stream is not closed for being idle while its member is open
     * (see {@link StreamRegistry#closeIdle}).
     */
    private boolean holdsGroups;

    ClientStream(BrokerChannel channel, Key key, BiConsumer<ByteBuf, Integer> openArgs, Function<ByteBuf, T> decoder,
                 int minItemBytes, Op returnOp, BiConsumer<ByteBuf, List<LeaseToken>> returnArgs,
                 Function<T, LeaseToken> tokenOf) {
        this.channel = channel;
        this.key = key;
        this.openArgs = openArgs;
        this.decoder = decoder;
        this.minItemBytes = minItemBytes;
        this.returnOp = returnOp;
        this.returnArgs = returnArgs;
        this.tokenOf = tokenOf;
    }

    /** What to give back after a reconnect ({@link #dropped}), or {@code null}. */
    synchronized GiveBack giveBack() {
        if (dropped.isEmpty()) {
            return null;
        }
        return new GiveBack(returnOp, returnArgs, List.copyOf(dropped));
    }

    /** The tokens were given back (or no longer need to be). */
    synchronized void givenBack(List<LeaseToken> tokens) {
        dropped.removeAll(tokens);
    }

    /** A request giving back {@code tokens}: {@code args} writes its arguments for any of them. */
    record GiveBack(Op op, BiConsumer<ByteBuf, List<LeaseToken>> args, List<LeaseToken> tokens) {
    }

    Key key() {
        return key;
    }

    /** {@code System.nanoTime()} {@code wait} from now, saturated: a wait of years is a wait without end. */
    static long deadlineAfter(java.time.Duration wait) {
        long nanos;
        try {
            nanos = Math.min(wait.toNanos(), Long.MAX_VALUE / 4);
        } catch (ArithmeticException e) {
            nanos = Long.MAX_VALUE / 4;
        }
        return System.nanoTime() + nanos;
    }

    /**
     * Up to {@code max} items, waiting until {@code deadlineNanos} for the first; an empty list if none came;
     * {@code null} if the stream was closed meanwhile (ask the connection for the stream again).
     */
    List<T> take(int max, long deadlineNanos) throws InterruptedException {
        synchronized (this) {
            waiters++;
        }
        try {
            while (true) {
                synchronized (this) {
                    List<T> ready = takeBuffered(max);
                    if (ready != null) {
                        return ready;
                    }
                    if (state == State.CLOSED) {
                        return null;
                    }
                    if (state == State.NEW || state == State.LOST) {
                        state = State.OPENING;
                    } else {
                        long remaining = deadlineNanos - System.nanoTime();
                        if (remaining <= 0) {
                            return List.of();
                        }
                        TimeUnit.NANOSECONDS.timedWait(this, remaining);
                        continue;
                    }
                }
                open();
            }
        } finally {
            synchronized (this) {
                waiters--;
                lastUsedNanos = System.nanoTime();
            }
        }
    }

    /** What is buffered now (up to {@code max}), without waiting or opening; {@code null} if nothing. */
    List<T> takeNow(int max) {
        synchronized (this) {
            if (state == State.CLOSED) {
                return null;
            }
            List<T> ready = buffered > 0 ? takeBuffered(max) : null;
            lastUsedNanos = System.nanoTime();
            return ready;
        }
    }

    /** Caller holds the lock. Buffered items, a failure thrown, or {@code null} to wait (or reopen). */
    private List<T> takeBuffered(int max) {
        if (failure != null) {
            throw failure;
        }
        if (state == State.CLOSED || buffered == 0) {
            return null;
        }
        List<T> out = new ArrayList<>(Math.min(max, buffered));
        try {
            while (out.size() < max && !chunks.isEmpty()) {
                Chunk c = chunks.peekFirst();
                out.add(decoder.apply(c.body));
                c.left--;
                buffered--;
                if (c.left == 0) {
                    chunks.removeFirst();
                    try {
                        Fields.expectEnd(c.body);
                    } finally {
                        c.body.release();
                    }
                }
            }
        } catch (MalformedFrameException e) {
            String message = "malformed delivery on stream " + id + " from " + channel.endpoint() + ": "
                    + e.getMessage();
            channel.brokeProtocol(message);
            throw new ProtocolException(message);
        }
        channel.sendCredit(id, out.size());
        return out;
    }

    /**
     * Opens the stream under a new id, outside the lock; the connection waits for a reconnect if one is going on.
     * The channel may be lost and replaced while the open is under way, and the connection may send it again on
     * the new channel: whether the stream is open is decided by which channel answered, not by losses seen
     * meanwhile. (Deciding by losses left a stream open on the broker that this side had forgotten: what the broker
     * pushed into it was dropped here and stayed leased to nobody.)
     */
    private void open() {
        int newId = channel.streamRegistry().nextId();
        synchronized (this) {
            id = newId;
        }
        channel.streamRegistry().register(newId, this);
        int answeredOn;
        try {
            answeredOn = channel.openStream(key.op(), b -> openArgs.accept(b, newId));
        } catch (StoreClosedException e) {
            channel.streamRegistry().forget(newId, this);
            synchronized (this) {
                if (state == State.OPENING) {
                    state = State.LOST;
                }
                notifyAll();
            }
            if (!channel.isOpen()) {
                throw e;
            }
            // Lost while opening, or the broker is stopping: the next turn opens again, once reconnected.
            try {
                Thread.sleep(50);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw e;
            }
            return;
        } catch (RuntimeException e) {
            channel.streamRegistry().forget(newId, this);
            synchronized (this) {
                if (state == State.OPENING) {
                    state = State.NEW;
                }
                notifyAll();
            }
            throw e;
        }
        boolean open;
        synchronized (this) {
            // A later loss of that channel calls lost(), which needs this lock: it cannot slip in between.
            open = state == State.OPENING && channel.isCurrent(answeredOn);
            if (state == State.OPENING) {
                state = open ? State.OPEN : State.LOST;
            }
            notifyAll();
        }
        if (!open) {
            channel.streamRegistry().forget(newId, this);
        }
    }

    /** A DELIVERY frame for this stream, on the event loop; {@code false} if it was not kept (release it). */
    boolean delivered(ByteBuf body) {
        int count = Fields.readCount(body, minItemBytes);
        synchronized (this) {
            if (state == State.CLOSED || count == 0) {
                return false;
            }
            chunks.addLast(new Chunk(body, count));
            buffered += count;
            notifyAll();
            return true;
        }
    }

    /**
     * The channel was lost: what was buffered is given back after the reconnect ({@link #dropped}); reopen on the
     * next take. A stream being opened is left to its opener, which knows which channel answered.
     */
    void lost() {
        synchronized (this) {
            keepTokensOfBuffer();
            dropBuffer();
            if (state == State.OPEN) {
                state = State.LOST;
            }
            notifyAll();
        }
    }

    /** The broker ended the stream because it is stopping: open again (maybe on the next channel). */
    void endedByBroker() {
        synchronized (this) {
            keepTokensOfBuffer();
            dropBuffer();
            if (state == State.OPEN || state == State.OPENING) {
                state = State.LOST;
            }
            notifyAll();
        }
    }

    /** Whether this stream is being opened under {@code streamId}. */
    synchronized boolean opening(int streamId) {
        return state == State.OPENING && id == streamId;
    }

    /** The broker ended the stream, or the connection closed for good: waiting takers get {@code e}. */
    void fail(RuntimeException e) {
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            failure = e;
            dropBuffer();
            notifyAll();
        }
    }

    /**
     * Closes the stream if nobody waits on it and nobody took from it for {@code idleNanos}; returns the id to
     * close on the broker (0: none, the stream was not open), or -1 if it stays open.
     */
    int closeIfIdle(long nowNanos, long idleNanos) {
        synchronized (this) {
            if (waiters > 0 || state == State.CLOSED || state == State.OPENING || state == State.NEW
                    || nowNanos - lastUsedNanos < idleNanos) {
                return -1;
            }
            int open = state == State.OPEN ? id : 0;
            state = State.CLOSED;
            dropBuffer();
            return open;
        }
    }

    synchronized int id() {
        return id;
    }

    /** Its member took a grouped item from it: see {@link #holdsGroups}. */
    synchronized void tookGroupedItem() {
        holdsGroups = true;
    }

    /** Whether its member took a grouped item from it (and so owns groups on the broker while it is open). */
    synchronized boolean holdsGroups() {
        return holdsGroups;
    }

    /** Items pushed and not taken yet. */
    synchronized int buffered() {
        return buffered;
    }

    /** Caller holds the lock: the tokens of what is buffered go to {@link #dropped}. */
    private void keepTokensOfBuffer() {
        for (Chunk c : chunks) {
            try {
                for (int i = 0; i < c.left; i++) {
                    dropped.add(tokenOf.apply(decoder.apply(c.body)));
                }
            } catch (RuntimeException malformed) {
                // the rest of this frame is unreadable: those leases run out instead
            }
        }
    }

    private void dropBuffer() {
        for (Chunk c : chunks) {
            c.body.release();
        }
        chunks.clear();
        buffered = 0;
    }

    @Override
    public String toString() {
        return "ClientStream[" + key + "]";
    }
}
