package io.mikyu.client;

import io.mikyu.engine.MikyuException;
import io.mikyu.engine.NoAnswerException;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.MalformedFrameException;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.ProtocolException;
import io.mikyu.protocol.ServerHello;
import io.mikyu.protocol.StreamDescriptor;
import io.mikyu.transport.Endpoint;
import io.mikyu.transport.Tls;
import io.mikyu.transport.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One multiplexed connection to a broker, shared by every thread of a {@link RemoteMikyu} (and so by every JMS
 * connection that dialled the same URL): each call gets a request id, is written, and waits for the answer with its
 * id, so many calls are in flight at once ({@link PendingCalls}). The event loop only files answers under their ids
 * ({@link BrokerFrameHandler}); the calling thread decodes its own answer, so big results are decoded in parallel
 * rather than on the one I/O thread. Consumer streams are kept by {@link StreamRegistry}.
 *
 * <p>With the {@code reconnect} option, a lost Netty channel is replaced ({@link Reconnector}): calls made meanwhile
 * wait for it. Calls in flight when the channel was lost are sent again if repeating them is harmless (reads, polls,
 * dequeues, lease extensions, opens); the others (appends, acks, commits, deletes) fail with
 * {@link StoreClosedException}, as their outcome is unknown. When reconnecting fails for good, this is closed and
 * {@link #isOpen()} turns false.
 */
final class BrokerChannel implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerChannel.class);

    /** Requests that may be sent again after a reconnect without changing what they do. */
    private static final Set<Op> REPEATABLE = EnumSet.of(Op.GET_OR_CREATE_LOG, Op.GET_LOG,
            Op.GET_OR_CREATE_TASK_QUEUE, Op.GET_TASK_QUEUE, Op.LIST, Op.STATS, Op.RECOVERY_REPORT, Op.FLUSH,
            Op.PREPARED_TRANSACTIONS, Op.READ_ONE, Op.READ, Op.POLL, Op.POLL_ENCODED, Op.START_OFFSET, Op.END_OFFSET,
            Op.OFFSET_FOR_TIMESTAMP, Op.GROUPS, Op.LOG_STATS, Op.GROUP_OPEN, Op.GROUP_POSITION,
            Op.GROUP_HAS_COMMITTED, Op.GROUP_POLL, Op.GROUP_LAG, Op.SHARED_OPEN, Op.SHARED_FETCH, Op.SHARED_EXTEND,
            Op.SHARED_COMMITTED, Op.SHARED_COUNTS, Op.SHARED_LAG, Op.DEQUEUE, Op.TASK_EXTEND, Op.BROWSE,
            Op.TASK_COUNTS, Op.TASK_STATS, Op.CLAIM, Op.RELEASE_CLAIM, Op.CLAIM_HOLDERS);

    private final Endpoint endpoint;
    private final ClientOptions options;
    private final EventLoopGroup group;
    /** For {@code tls://}: the client's TLS context, made once. */
    private final Tls tls;
    private final PendingCalls calls = new PendingCalls();
    private final StreamRegistry streams = new StreamRegistry(this);
    private final ChannelReplay replay = new ChannelReplay(this);
    private final Reconnector reconnector = new Reconnector(this, replay, streams);

    private volatile CompletableFuture<ServerHello> handshake = new CompletableFuture<>();
    /** The Netty channel in use; replaced by a reconnect. */
    private volatile Channel current;
    private volatile int maxFrameBytes = Protocol.HANDSHAKE_FRAME_BYTES;
    private volatile String closedBecause;
    /** Set once the first handshake is done: only an established connection reconnects. */
    private volatile boolean established;
    /** Counts channels that completed a handshake; a call knows which one it was sent on. */
    private volatile int generation;
    /** Done while a channel is up; replaced by a pending one while reconnecting. */
    private volatile CompletableFuture<Void> up = CompletableFuture.completedFuture(null);
    /** The features the broker agreed on in the last handshake. */
    private volatile long features;
    /** The broker's store id from the last handshake; {@code null} if it has no feature XA. */
    private volatile String storeId;

    private BrokerChannel(Endpoint endpoint, ClientOptions options) {
        this.endpoint = endpoint;
        this.options = options;
        this.tls = endpoint.isTls() ? Tls.forClient(options.tls()) : null;
        this.group = Transport.best().newGroup(1, "mikyu-client");
        long idleNanos = options.streamIdle().toNanos();
        long tick = Math.max(10, Math.min(100, options.streamIdle().toMillis() / 4));
        group.scheduleAtFixedRate(() -> streams.closeIdle(null, idleNanos, false), tick, tick,
                TimeUnit.MILLISECONDS);
    }

    /** Connects and shakes hands; fails with {@link StoreClosedException} if the broker cannot be reached. */
    static BrokerChannel open(Endpoint endpoint, ClientOptions options) {
        BrokerChannel c = new BrokerChannel(endpoint, options);
        try {
            c.dial();
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Opens a new Netty channel and shakes hands on it; returns it. */
    Channel dial() {
        handshake = new CompletableFuture<>();
        int heartbeat = (int) options.heartbeat().toMillis();
        Bootstrap bootstrap = new Bootstrap().group(group)
                .channel(Transport.best().channelClass(endpoint))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.connectTimeout().toMillis())
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast("tls", tls.newHandler(ch, endpoint));
                        }
                        Protocol.install(ch.pipeline(), heartbeat);
                        ch.pipeline().addLast("client", new BrokerFrameHandler(BrokerChannel.this, calls, streams));
                    }
                });
        if (!endpoint.isUnix()) {
            bootstrap.option(ChannelOption.TCP_NODELAY, true);
        }
        ChannelFuture connected = bootstrap.connect(endpoint.address());
        if (!connected.awaitUninterruptibly(options.connectTimeout().toMillis()) || !connected.isSuccess()) {
            Throwable cause = connected.cause();
            throw new StoreClosedException("cannot connect to mikyu broker at " + endpoint + ": "
                    + (cause == null ? "timed out after " + options.connectTimeout().toMillis() + " ms" : cause));
        }
        Channel ch = connected.channel();
        current = ch;
        CompletableFuture<ServerHello> handshake = this.handshake;
        ByteBuf hello = FrameDescriptor.writeHeader(ch.alloc().buffer(), FrameDescriptor.HELLO, 0,
                FrameDescriptor.CONNECTION_ID);
        new ClientHello(Protocol.VERSION, Protocol.FEATURES, options.maxFrameBytes(), heartbeat,
                options.clientName(), options.user(), options.password() == null ? null
                : options.password().getBytes(StandardCharsets.UTF_8)).write(hello);
        ch.writeAndFlush(hello);
        try {
            ServerHello answer = handshake.get(options.connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
            maxFrameBytes = answer.maxFrameBytes();
            features = answer.features();
            storeId = answer.storeId();
            established = true;
            return ch;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new MikyuException(e.getCause().toString());
        } catch (TimeoutException e) {
            throw new StoreClosedException("no handshake from " + endpoint + " within "
                    + options.connectTimeout().toMillis() + " ms: is a mikyu broker listening there?");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreClosedException("interrupted while connecting to " + endpoint);
        }
    }

    /** The handshake under way on the newest Netty channel. */
    CompletableFuture<ServerHello> handshake() {
        return handshake;
    }

    Endpoint endpoint() {
        return endpoint;
    }

    /** Sends a request and returns its decoded result; for requests that do not wait on the broker. */
    <T> T call(Op op, Consumer<ByteBuf> args, Function<ByteBuf, T> result) {
        try {
            return call(op, args, result, Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MikyuException("interrupted while waiting for the broker's answer to " + op);
        }
    }

    /** As {@link #call(Op, Consumer, Function)} for a request that may wait up to {@code wait} on the broker. */
    <T> T call(Op op, Consumer<ByteBuf> args, Function<ByteBuf, T> result, Duration wait)
            throws InterruptedException {
        List<ByteBuf> chunks = send(op, args, wait);
        try {
            ByteBuf body = chunks.get(0);
            T value = result.apply(body);
            Fields.expectEnd(body);
            return value;
        } catch (MalformedFrameException e) {
            throw new ProtocolException("malformed answer to " + op + " from " + endpoint + ": " + e.getMessage());
        } finally {
            chunks.forEach(ByteBuf::release);
        }
    }

    /** A request whose result is a list, possibly sent in several frames. */
    <T> List<T> callList(Op op, Consumer<ByteBuf> args, Function<ByteBuf, T> item, int minItemBytes, Duration wait)
            throws InterruptedException {
        List<ByteBuf> chunks = send(op, args, wait);
        try {
            List<T> all = new ArrayList<>();
            for (ByteBuf chunk : chunks) {
                int count = Fields.readCount(chunk, minItemBytes);
                for (int i = 0; i < count; i++) {
                    all.add(item.apply(chunk));
                }
                Fields.expectEnd(chunk);
            }
            return all;
        } catch (MalformedFrameException e) {
            throw new ProtocolException("malformed answer to " + op + " from " + endpoint + ": " + e.getMessage());
        } finally {
            chunks.forEach(ByteBuf::release);
        }
    }

    <T> List<T> callList(Op op, Consumer<ByteBuf> args, Function<ByteBuf, T> item, int minItemBytes) {
        try {
            return callList(op, args, item, minItemBytes, Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MikyuException("interrupted while waiting for the broker's answer to " + op);
        }
    }

    /**
     * Sends the request that opens a consumer stream; returns the generation of the channel that answered it, on
     * which the broker now holds the stream (see {@link #isCurrent}).
     */
    int openStream(Op op, Consumer<ByteBuf> args) {
        int[] answeredOn = new int[1];
        try {
            send(op, args, Duration.ZERO, answeredOn).forEach(ByteBuf::release);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MikyuException("interrupted while waiting for the broker's answer to " + op);
        }
        return answeredOn[0];
    }

    /**
     * Sends a request without waiting for its answer, so that one thread keeps several in flight (a body upload's
     * window of chunks); {@link Submitted#await()} takes the answer later. Never repeated after a reconnect.
     */
    Submitted submit(Op op, Consumer<ByteBuf> args) {
        try {
            int gen = awaitUp(op);
            Channel ch = current;
            int id = calls.nextId();
            ByteBuf frame = FrameDescriptor.writeHeader(ch.alloc().buffer(), op.code(), 0, id);
            try {
                args.accept(frame);
            } catch (RuntimeException e) {
                frame.release();
                throw e;
            }
            if (frame.readableBytes() > maxFrameBytes) {
                int size = frame.readableBytes();
                frame.release();
                throw new RecordTooLargeException(op + " request of " + size + " bytes exceeds the broker's frame"
                        + " limit of " + maxFrameBytes + " bytes");
            }
            PendingCall call = calls.register(id);
            if (closedBecause != null || gen != generation || !up.isDone()) {
                calls.remove(id);
                frame.release();
                checkOpen();
                throw new StoreClosedException("the connection to " + endpoint + " was replaced while " + op
                        + " was being sent");
            }
            ch.writeAndFlush(frame).addListener(f -> {
                if (!f.isSuccess()) {
                    PendingCall failed = calls.remove(id);
                    if (failed != null) {
                        failed.lost("cannot send to " + endpoint + ": " + f.cause());
                    }
                }
            });
            return new Submitted(op, id, call);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MikyuException("interrupted while sending " + op);
        }
    }

    /** A request sent by {@link #submit}, its answer still to come. */
    final class Submitted {
        private final Op op;
        private final int id;
        private final PendingCall call;

        private Submitted(Op op, int id, PendingCall call) {
            this.op = op;
            this.id = id;
            this.call = call;
        }

        /** Waits for the answer (its body is dropped); throws what the broker answered, as a call does. */
        void await() {
            long timeout = options.requestTimeout().toMillis();
            try {
                call.await(timeout).forEach(ByteBuf::release);
            } catch (PendingCall.Lost e) {
                throw new StoreClosedException(e.getMessage() + "; " + op + " was in flight");
            } catch (TimeoutException e) {
                calls.remove(id);
                call.abandon();
                throw new NoAnswerException("no answer to " + op + " from " + endpoint + " within " + timeout
                        + " ms");
            } catch (InterruptedException e) {
                calls.remove(id);
                call.abandon();
                Thread.currentThread().interrupt();
                throw new MikyuException("interrupted while waiting for the broker's answer to " + op);
            }
        }
    }

    /** Whether the channel of generation {@code gen} is the one up now. */
    synchronized boolean isCurrent(int gen) {
        return closedBecause == null && generation == gen && up.isDone();
    }

    private List<ByteBuf> send(Op op, Consumer<ByteBuf> args, Duration wait) throws InterruptedException {
        return send(op, args, wait, null);
    }

    private List<ByteBuf> send(Op op, Consumer<ByteBuf> args, Duration wait, int[] answeredOn)
            throws InterruptedException {
        while (true) {
            int gen = awaitUp(op);
            try {
                List<ByteBuf> answer = attempt(op, args, wait, current, gen);
                if (answer != null) {
                    if (answeredOn != null) {
                        answeredOn[0] = gen;
                    }
                    return answer;
                }
            } catch (PendingCall.Lost e) {
                if (!reconnects() || !REPEATABLE.contains(op) || closedBecause != null) {
                    throw new StoreClosedException(e.getMessage() + (reconnects() && closedBecause == null
                            ? "; " + op + " was in flight, so whether the broker carried it out is not known" : ""));
                }
            } catch (StoreClosedException e) {
                // The broker answers a waiting call STORE_CLOSED when it stops; the channel closes next.
                if (!reconnects() || !REPEATABLE.contains(op) || !awaitNextGeneration(gen)) {
                    throw e;
                }
            }
        }
    }

    /** One try on channel {@code ch}; {@code null} if the channel was replaced before the request was sent. */
    private List<ByteBuf> attempt(Op op, Consumer<ByteBuf> args, Duration wait, Channel ch, int gen)
            throws InterruptedException {
        int id = calls.nextId();
        ByteBuf frame = FrameDescriptor.writeHeader(ch.alloc().buffer(), op.code(), 0, id);
        try {
            args.accept(frame);
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
        int limit = maxFrameBytes;
        if (frame.readableBytes() > limit) {
            int size = frame.readableBytes();
            frame.release();
            throw new RecordTooLargeException(op + " request of " + size + " bytes exceeds the broker's frame limit"
                    + " of " + limit + " bytes; send it in smaller batches");
        }
        PendingCall call = calls.register(id);
        if (closedBecause != null || (gen >= 0 && (gen != generation || !up.isDone()))) {
            calls.remove(id);
            frame.release();
            checkOpen();
            return null;
        }
        ch.writeAndFlush(frame).addListener(f -> {
            if (!f.isSuccess()) {
                PendingCall failed = calls.remove(id);
                if (failed != null) {
                    failed.lost("cannot send to " + endpoint + ": " + f.cause());
                }
            }
        });
        long timeout = options.requestTimeout().plus(wait).toMillis();
        try {
            return call.await(timeout);
        } catch (TimeoutException e) {
            calls.remove(id);
            call.abandon();
            throw new NoAnswerException("no answer to " + op + " from " + endpoint + " within " + timeout + " ms");
        } catch (InterruptedException e) {
            calls.remove(id);
            call.abandon();
            throw e;
        }
    }

    private boolean reconnects() {
        return !options.reconnect().isZero() && established;
    }

    /** Waits while reconnecting; returns the generation of the channel that is up. */
    private int awaitUp(Op op) throws InterruptedException {
        CompletableFuture<Void> u = up;
        if (!u.isDone()) {
            try {
                u.get(options.reconnect().plus(options.connectTimeout()).toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // closed for good (checked below) or still reconnecting
            }
        }
        checkOpen();
        if (!up.isDone()) {
            throw new StoreClosedException("not reconnected to " + endpoint + " in time for " + op);
        }
        return generation;
    }

    /** Waits (up to the reconnect time) for a channel newer than {@code gen}; false if none came. */
    private boolean awaitNextGeneration(int gen) throws InterruptedException {
        long deadline = System.nanoTime() + options.reconnect().plus(options.connectTimeout()).toNanos();
        while (closedBecause == null && System.nanoTime() < deadline) {
            CompletableFuture<Void> u = up;
            if (u.isDone() && generation != gen) {
                return true;
            }
            if (u.isDone()) {
                Thread.sleep(20);
            } else {
                try {
                    u.get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    // looked at again above
                }
            }
        }
        return false;
    }

    /** The store id the broker told in the last handshake; {@code null} from a broker without feature XA. */
    String storeId() {
        return storeId;
    }

    /** Whether the broker agreed on feature XA (store id, in-doubt listing). */
    boolean xa() {
        return (features & Protocol.FEATURE_XA) != 0;
    }

    /** Whether an ack may say how durable it must be: the broker agreed. */
    boolean durableAcks() {
        return (features & Protocol.FEATURE_DURABLE_ACKS) != 0;
    }

    /** Whether the broker holds transient tasks in its memory (ENQUEUE_TRANSIENT): it agreed. */
    boolean transientTasks() {
        return (features & Protocol.FEATURE_TRANSIENT_TASKS) != 0;
    }

    /** Whether the broker deletes a group unless it is claimed, in one step: it agreed. */
    boolean guardedDeletes() {
        return (features & Protocol.FEATURE_GUARDED_DELETES) != 0;
    }

    /** Whether large bodies travel in chunks (BODY_* requests): the broker agreed. */
    boolean largeBodies() {
        return (features & Protocol.FEATURE_LARGE_BODIES) != 0;
    }

    /** The frame limit agreed in the last handshake. */
    int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** Whether log records travel in the engine's batch layout: the broker agreed. */
    boolean encodedBatches() {
        return (features & Protocol.FEATURE_ENCODED_BATCHES) != 0;
    }

    /** Whether waiting dequeues and fetches draw from consumer streams: asked for, and agreed by the broker. */
    boolean streams() {
        return options.streams() && (features & Protocol.FEATURE_STREAMS) != 0;
    }

    ClientOptions options() {
        return options;
    }

    /** The consumer streams of this channel. */
    StreamRegistry streamRegistry() {
        return streams;
    }

    /** The shared groups and claims to set up again after a reconnect. */
    ChannelReplay replay() {
        return replay;
    }

    /**
     * One request on the Netty channel {@code ch} while reconnecting, before calls go through; its answer is
     * dropped. Throws {@link PendingCall.Lost} if {@code ch} is lost meanwhile.
     */
    void callOn(Channel ch, Op op, Consumer<ByteBuf> args) throws InterruptedException {
        attempt(op, args, Duration.ZERO, ch, -1).forEach(ByteBuf::release);
    }

    /** Credit for {@code messages} taken from stream {@code id}, on the channel that is up (never answered). */
    void sendCredit(int id, int messages) {
        Channel ch = current;
        if (messages > 0 && ch != null && ch.isActive()) {
            ch.writeAndFlush(StreamDescriptor.writeCreditFrame(ch.alloc().buffer(10), id, messages));
        }
    }

    /** A request whose answer nobody waits for: it is dropped when it comes. */
    void sendWithoutAnswer(Op op, Consumer<ByteBuf> args) {
        Channel ch = current;
        if (ch == null || !ch.isActive() || !up.isDone() || closedBecause != null) {
            return;
        }
        ByteBuf frame = FrameDescriptor.writeHeader(ch.alloc().buffer(), op.code(), 0, calls.nextId());
        args.accept(frame);
        ch.writeAndFlush(frame);
    }

    /** The broker sent something this side cannot read: the connection is closed. */
    void brokeProtocol(String message) {
        LOG.warn("closing connection to {}: {}", endpoint, message);
        closeBecause("broker at " + endpoint + " broke the protocol: " + message);
        closeCurrent();
    }

    /** Whether {@code ch} is the Netty channel in use (not one already replaced). */
    boolean isInUse(Channel ch) {
        return ch == current;
    }

    /** The Netty channel in use closed: a reconnect starts if this channel reconnects, else it is closed for good. */
    void channelClosed(String reason) {
        if (closedBecause == null && reconnects()) {
            lost(reason);
            return;
        }
        closeBecause(reason);
        failAll();
    }

    /** The Netty channel failed and is being closed: for good, unless this channel reconnects. */
    void channelFailed(String reason) {
        if (!reconnects()) {
            closeBecause(reason);
        }
    }

    /** The channel was lost: calls in flight fail (and are repeated where harmless); a reconnect starts. */
    private void lost(String reason) {
        boolean start;
        synchronized (this) {
            start = closedBecause == null && up.isDone();
            if (start) {
                up = new CompletableFuture<>();
            }
        }
        calls.loseAll(reason);
        streams.lost();
        if (start) {
            reconnector.start(reason);
        }
    }

    /** The reconnect is done: calls go through on the new channel. */
    synchronized void reconnected() {
        generation++;
        up.complete(null);
    }

    /** Reconnecting failed for good ({@code last}: why), or the client closed this meanwhile. */
    void couldNotReconnect(String last) {
        boolean gaveUp = closedBecause == null;   // else the client closed it meanwhile
        closeBecause("lost the connection to mikyu broker at " + endpoint + " and could not reconnect within "
                + options.reconnect().toMillis() + " ms: " + last);
        up.completeExceptionally(new StoreClosedException(closedBecause));
        failAll();
        if (gaveUp) {
            LOG.warn(closedBecause);
        }
    }

    /** Closes the Netty channel in use, if any; a reconnect may follow. */
    void closeCurrent() {
        Channel ch = current;
        if (ch != null) {
            ch.close();
        }
    }

    private void checkOpen() {
        String reason = closedBecause;
        if (reason != null) {
            throw new StoreClosedException(reason);
        }
    }

    boolean isOpen() {
        return closedBecause == null;
    }

    /** Closes the channel; calls still waiting fail with {@link StoreClosedException}. Idempotent. */
    @Override
    public void close() {
        if (closedBecause == null && up.isDone() && !streams.isEmpty()) {
            streams.closeBeforeClosing();
        }
        closeBecause("the client closed its connection to " + endpoint);
        up.completeExceptionally(new StoreClosedException(closedBecause));
        Channel ch = current;
        if (ch != null) {
            ch.close().awaitUninterruptibly(5_000);
        }
        failAll();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5_000);
    }

    /** Closed for good, for {@code reason} (the first one given stays). */
    void closeBecause(String reason) {
        synchronized (this) {
            if (closedBecause == null) {
                closedBecause = reason;
            }
        }
    }

    private void failAll() {
        calls.failAll(closedBecause);
        streams.failAll(new StoreClosedException(closedBecause));
    }
}
