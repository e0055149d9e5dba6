package io.mikyu.client;

import io.mikyu.engine.MikyuException;
import io.mikyu.engine.NoAnswerException;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.ErrorCode;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.MalformedFrameException;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.ProtocolException;
import io.mikyu.protocol.ServerHello;
import io.mikyu.protocol.StreamDescriptor;
import io.mikyu.transport.Endpoint;
import io.mikyu.transport.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One Netty channel to a broker, shared by every thread of a {@link RemoteMikyu}: each call gets a request id,
 * is written, and waits for the answer with its id, so many calls are in flight at once. The event loop only
 * files answers under their ids; the calling thread decodes its own answer, so big results are decoded in
 * parallel rather than on the one I/O thread.
 *
 * <p>With the {@code reconnect} option, a lost channel is replaced: the connection dials again with backoff (100 ms
 * doubling to 5 s) for up to that long, opens again the shared groups it had opened (the broker keeps them per
 * connection), and only then lets calls through. Calls made meanwhile wait for it. Calls in flight when the channel
 * was lost are sent again if repeating them is harmless (reads, polls, dequeues, lease extensions, opens); the
 * others (appends, acks, commits, deletes) fail with {@link StoreClosedException}, as their outcome is unknown.
 * When reconnecting fails for good, the connection is closed and {@link #isOpen()} turns false.
 */
final class BrokerChannel implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerChannel.class);

    private final Endpoint endpoint;
    private final ClientOptions options;
    private final EventLoopGroup group;
    /** For {@code tls://}: the client's TLS context, made once. */
    private final io.mikyu.transport.Tls tls;
    private final ConcurrentHashMap<Integer, Call> calls = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    /** Requests that may be sent again after a reconnect without changing what they do. */
    private static final Set<Op> REPEATABLE = EnumSet.of(Op.GET_OR_CREATE_LOG, Op.GET_LOG,
            Op.GET_OR_CREATE_TASK_QUEUE, Op.GET_TASK_QUEUE, Op.LIST, Op.STATS, Op.RECOVERY_REPORT, Op.FLUSH,
            Op.PREPARED_TRANSACTIONS, Op.READ_ONE, Op.READ, Op.POLL, Op.POLL_ENCODED, Op.START_OFFSET, Op.END_OFFSET,
            Op.OFFSET_FOR_TIMESTAMP, Op.GROUPS, Op.LOG_STATS, Op.GROUP_OPEN, Op.GROUP_POSITION,
            Op.GROUP_HAS_COMMITTED, Op.GROUP_POLL, Op.GROUP_LAG, Op.SHARED_OPEN, Op.SHARED_FETCH, Op.SHARED_EXTEND,
            Op.SHARED_COMMITTED, Op.SHARED_COUNTS, Op.SHARED_LAG, Op.DEQUEUE, Op.TASK_EXTEND, Op.BROWSE,
            Op.TASK_COUNTS, Op.TASK_STATS, Op.CLAIM, Op.RELEASE_CLAIM, Op.CLAIM_HOLDERS);
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    private volatile CompletableFuture<ServerHello> handshake = new CompletableFuture<>();
    private volatile Channel channel;
    private volatile int maxFrameBytes = Protocol.HANDSHAKE_FRAME_BYTES;
    private volatile String closedBecause;
    /** Set once the first handshake is done: only an established connection reconnects. */
    private volatile boolean established;
    /** Counts channels that completed a handshake; a call knows which one it was sent on. */
    private volatile int generation;
    /** Done while a channel is up; replaced by a pending one while reconnecting. */
    private volatile CompletableFuture<Void> up = CompletableFuture.completedFuture(null);
    /** How to open again, on a new channel, each shared group opened on this connection ("queue\0group"). */
    private final ConcurrentHashMap<String, Consumer<ByteBuf>> sharedGroups = new ConcurrentHashMap<>();
    /** The features the broker agreed on in the last handshake. */
    private volatile long features;
    /** The broker's store id from the last handshake; {@code null} if it has no feature XA. */
    private volatile String storeId;
    /** Consumer streams: by the id DELIVERY frames carry, and by what they serve. */
    private final ConcurrentHashMap<Integer, ClientStream<?>> streamsById = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ClientStream.Key, ClientStream<?>> streamsByKey = new ConcurrentHashMap<>();
    private final AtomicInteger streamIds = new AtomicInteger();

    private BrokerChannel(Endpoint endpoint, ClientOptions options) {
        this.endpoint = endpoint;
        this.options = options;
        this.tls = endpoint.isTls() ? io.mikyu.transport.Tls.forClient(options.tls()) : null;
        this.group = Transport.best().newGroup(1, "mikyu-client");
        long idleNanos = options.streamIdle().toNanos();
        long tick = Math.max(10, Math.min(100, options.streamIdle().toMillis() / 4));
        group.scheduleAtFixedRate(() -> closeIdleStreams(null, idleNanos, false), tick, tick,
                TimeUnit.MILLISECONDS);
    }

    /** Connects and shakes hands; fails with {@link StoreClosedException} if the broker cannot be reached. */
    static BrokerChannel open(Endpoint endpoint, ClientOptions options) {
        BrokerChannel c = new BrokerChannel(endpoint, options);
        try {
            c.connect();
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void connect() {
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
                        ch.pipeline().addLast("client", new Answers());
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
        channel = connected.channel();
        CompletableFuture<ServerHello> handshake = this.handshake;
        ByteBuf hello = FrameDescriptor.writeHeader(channel.alloc().buffer(), FrameDescriptor.HELLO, 0,
                FrameDescriptor.CONNECTION_ID);
        new ClientHello(Protocol.VERSION, Protocol.FEATURES, options.maxFrameBytes(), heartbeat,
                options.clientName(), options.user(), options.password() == null ? null
                : options.password().getBytes(java.nio.charset.StandardCharsets.UTF_8)).write(hello);
        channel.writeAndFlush(hello);
        try {
            ServerHello answer = handshake.get(options.connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
            maxFrameBytes = answer.maxFrameBytes();
            features = answer.features();
            storeId = answer.storeId();
            established = true;
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
                List<ByteBuf> answer = attempt(op, args, wait, channel, gen);
                if (answer != null) {
                    if (answeredOn != null) {
                        answeredOn[0] = gen;
                    }
                    return answer;
                }
            } catch (Lost e) {
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
        int id = nextId();
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
        Call call = new Call();
        calls.put(id, call);
        if (closedBecause != null || (gen >= 0 && (gen != generation || !up.isDone()))) {
            calls.remove(id);
            frame.release();
            checkOpen();
            return null;
        }
        ch.writeAndFlush(frame).addListener(f -> {
            if (!f.isSuccess()) {
                Call failed = calls.remove(id);
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

    /** Whether the broker deletes a group unless it is claimed, in one step: it agreed. */
    boolean guardedDeletes() {
        return (features & Protocol.FEATURE_GUARDED_DELETES) != 0;
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

    /**
     * The stream serving {@code key}, made by {@code factory} if there is none. Opening one closes the idle streams
     * of the same queue first, so what they buffered is free for it (a consumer whose selector changed).
     */
    @SuppressWarnings("unchecked")
    <T> ClientStream<T> stream(ClientStream.Key key, Function<ClientStream.Key, ClientStream<T>> factory) {
        ClientStream<?> s = streamsByKey.get(key);
        if (s == null) {
            closeIdleStreams(key.queue(), 0, true);
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
    <T> ClientStream<T> existingStream(ClientStream.Key key) {
        return (ClientStream<T>) streamsByKey.get(key);
    }

    int nextStreamId() {
        int id;
        do {
            id = streamIds.incrementAndGet();
        } while (id == FrameDescriptor.CONNECTION_ID);
        return id;
    }

    void registerStream(int id, ClientStream<?> stream) {
        streamsById.put(id, stream);
    }

    void forgetStream(int id, ClientStream<?> stream) {
        streamsById.remove(id, stream);
    }

    /** Credit for {@code messages} taken from stream {@code id}, on the channel that is up (never answered). */
    void sendCredit(int id, int messages) {
        Channel ch = channel;
        if (messages > 0 && ch != null && ch.isActive()) {
            ch.writeAndFlush(StreamDescriptor.writeCreditFrame(ch.alloc().buffer(10), id, messages));
        }
    }

    /**
     * Closes the streams nobody waits on and nobody took from for {@code idleNanos}: of queue {@code queue}, or of
     * every queue if it is null. The broker gives back what they buffered; {@code await}: before this returns (not
     * on the event loop).
     */
    void closeIdleStreams(String queue, long idleNanos, boolean await) {
        if (streamsByKey.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        for (ClientStream<?> s : streamsByKey.values()) {
            if (queue != null && !queue.equals(s.key().queue())) {
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
                        call(Op.STREAM_CLOSE, b -> b.writeInt(id), b -> null);
                    } catch (RuntimeException e) {
                        LOG.debug("closing stream {} on {}: {}", id, endpoint, e.toString());
                    }
                } else {
                    sendWithoutAnswer(Op.STREAM_CLOSE, b -> b.writeInt(id));
                }
            }
        }
    }

    /** How long closing a connection waits for the broker to answer its streams' closes. */
    private static final long CLOSE_STREAMS_MILLIS = 5_000;

    /**
     * Before the channel closes: the streams nobody waits on are closed with the broker, each close answered, so
     * what this side never took goes back undelivered at once (not counted as an attempt). A connection that just
     * ends leaves the broker unable to tell those items from ones whose CREDIT was lost with it: it keeps them all
     * leased until their leases end. Waits at most {@value #CLOSE_STREAMS_MILLIS} ms.
     */
    private void closeStreamsFirst() {
        if (closedBecause != null || !up.isDone() || streamsByKey.isEmpty()) {
            return;
        }
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
                    call(Op.STREAM_CLOSE, b -> b.writeInt(id), b -> null);
                } catch (RuntimeException e) {
                    LOG.debug("closing stream {} on {} before closing: {}", id, endpoint, e.toString());
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

    /** A request whose answer nobody waits for: it is dropped when it comes. */
    private void sendWithoutAnswer(Op op, Consumer<ByteBuf> args) {
        Channel ch = channel;
        if (ch == null || !ch.isActive() || !up.isDone() || closedBecause != null) {
            return;
        }
        ByteBuf frame = FrameDescriptor.writeHeader(ch.alloc().buffer(), op.code(), 0, nextId());
        args.accept(frame);
        ch.writeAndFlush(frame);
    }

    /** The broker sent something this side cannot read: the connection is closed. */
    void brokeProtocol(String message) {
        LOG.warn("closing connection to {}: {}", endpoint, message);
        closeBecause("broker at " + endpoint + " broke the protocol: " + message);
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    private void streamsLost() {
        for (ClientStream<?> s : streamsByKey.values()) {
            s.lost();
        }
        // A stream still opening keeps its id: its open may yet be answered on the next channel (see ClientStream).
        streamsById.entrySet().removeIf(e -> !e.getValue().opening(e.getKey()));
    }

    private void failStreams() {
        StoreClosedException closed = new StoreClosedException(closedBecause);
        for (ClientStream<?> s : streamsByKey.values()) {
            s.fail(closed);
        }
        streamsByKey.clear();
        streamsById.clear();
    }

    /** Remembers how a shared group was opened, to open it again after a reconnect. */
    void opened(String queue, String group, Consumer<ByteBuf> args) {
        sharedGroups.put(queue + "\0" + group, args);
    }

    /** Claims this connection holds: the broker drops them with a lost connection, so they are taken again. */
    private final java.util.Set<RemoteClaim> claims = ConcurrentHashMap.newKeySet();

    void claimed(RemoteClaim claim) {
        claims.add(claim);
    }

    void released(RemoteClaim claim) {
        claims.remove(claim);
    }

    void forgetGroup(String queue, String group) {
        sharedGroups.remove(queue + "\0" + group);
    }

    void forgetQueue(String queue) {
        sharedGroups.keySet().removeIf(k -> k.startsWith(queue + "\0"));
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
        for (Integer id : List.copyOf(calls.keySet())) {
            Call call = calls.remove(id);
            if (call != null) {
                call.lost(reason);
            }
        }
        streamsLost();
        if (start) {
            Thread t = new Thread(() -> reconnect(reason), "mikyu-client-reconnect");
            t.setDaemon(true);
            t.start();
        }
    }

    private void reconnect(String reason) {
        LOG.warn("{}; reconnecting for up to {} ms", reason, options.reconnect().toMillis());
        long deadline = System.nanoTime() + options.reconnect().toNanos();
        long backoff = 100;
        String last = reason;
        while (closedBecause == null) {
            long remaining = (deadline - System.nanoTime()) / 1_000_000;
            if (remaining <= 0) {
                break;
            }
            try {
                Thread.sleep(Math.min(backoff, remaining));
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
                connect();
                Channel ch = channel;
                for (Map.Entry<String, Consumer<ByteBuf>> g : sharedGroups.entrySet()) {
                    try {
                        List<ByteBuf> answer = attempt(Op.SHARED_OPEN, g.getValue(), Duration.ZERO, ch, -1);
                        answer.forEach(ByteBuf::release);
                    } catch (Lost e) {
                        throw new StoreClosedException(e.getMessage());
                    } catch (RuntimeException e) {
                        LOG.warn("after reconnecting to {}: shared group {} not opened again: {}", endpoint,
                                g.getKey().replace('\0', '/'), e.toString());
                        sharedGroups.remove(g.getKey(), g.getValue());
                    }
                }
                for (RemoteClaim c : List.copyOf(claims)) {
                    try {
                        attempt(Op.CLAIM, c::writeArgs, Duration.ZERO, ch, -1).forEach(ByteBuf::release);
                    } catch (Lost e) {
                        throw new StoreClosedException(e.getMessage());
                    } catch (RuntimeException e) {
                        LOG.warn("after reconnecting to {}: claim on '{}' not taken again: {}", endpoint,
                                c.name(), e.toString());
                        claims.remove(c);
                        c.lost();
                    }
                }
                for (ClientStream<?> s : List.copyOf(streamsByKey.values())) {
                    ClientStream.GiveBack back = s.giveBack();
                    if (back != null) {
                        giveBack(back, ch);
                        s.givenBack(back.tokens());
                    }
                }
                synchronized (this) {
                    generation++;
                    up.complete(null);
                }
                LOG.info("reconnected to {}", endpoint);
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                last = "interrupted";
                break;
            } catch (RuntimeException e) {
                last = e.getMessage();
                Channel ch = channel;
                if (ch != null) {
                    ch.close();
                }
            }
        }
        boolean gaveUp = closedBecause == null;   // else the client closed it meanwhile
        closeBecause("lost the connection to mikyu broker at " + endpoint + " and could not reconnect within "
                + options.reconnect().toMillis() + " ms: " + last);
        up.completeExceptionally(new StoreClosedException(closedBecause));
        failAll();
        if (gaveUp) {
            LOG.warn(closedBecause);
        }
    }

    /**
     * After a reconnect, on the new channel: gives back pushed items the lost channel's streams never handed out.
     * A token the broker no longer honours (it gave the items back itself when it saw the connection close, or
     * their lease ended) needs nothing more; one such token refuses the whole request, so the rest go one by one.
     */
    private void giveBack(ClientStream.GiveBack back, Channel ch) throws InterruptedException {
        try {
            giveBack(back, back.tokens(), ch);
        } catch (io.mikyu.engine.StaleLeaseException stale) {
            for (io.mikyu.engine.LeaseToken t : back.tokens()) {
                try {
                    giveBack(back, List.of(t), ch);
                } catch (io.mikyu.engine.StaleLeaseException gone) {
                    // given back by the broker already, or its lease ended
                }
            }
        } catch (StoreClosedException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.debug("after reconnecting to {}: giving back {} pushed items failed, their leases will run out: {}",
                    endpoint, back.tokens().size(), e.toString());
        }
    }

    private void giveBack(ClientStream.GiveBack back, List<io.mikyu.engine.LeaseToken> tokens, Channel ch)
            throws InterruptedException {
        try {
            attempt(back.op(), b -> back.args().accept(b, tokens), Duration.ZERO, ch, -1).forEach(ByteBuf::release);
        } catch (Lost e) {
            throw new StoreClosedException(e.getMessage());
        }
    }

    private int nextId() {
        int id;
        do {
            id = ids.incrementAndGet();
        } while (id == FrameDescriptor.CONNECTION_ID);
        return id;
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
        closeStreamsFirst();
        closeBecause("the client closed its connection to " + endpoint);
        up.completeExceptionally(new StoreClosedException(closedBecause));
        Channel ch = channel;
        if (ch != null) {
            ch.close().awaitUninterruptibly(5_000);
        }
        failAll();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5_000);
    }

    private void closeBecause(String reason) {
        synchronized (this) {
            if (closedBecause == null) {
                closedBecause = reason;
            }
        }
    }

    private void failAll() {
        for (Integer id : List.copyOf(calls.keySet())) {
            Call call = calls.remove(id);
            if (call != null) {
                call.fail(ErrorCode.STORE_CLOSED, closedBecause);
            }
        }
        failStreams();
    }

    /** The broker's answers, on the event loop: each is filed under its request id for the waiting caller. */
    private final class Answers extends SimpleChannelInboundHandler<ByteBuf> {

        Answers() {
            super(false);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            int type = FrameDescriptor.type(frame);
            int flags = FrameDescriptor.flags(frame);
            int id = FrameDescriptor.requestId(frame);
            frame.skipBytes(FrameDescriptor.HEADER_BYTES);
            boolean kept = false;
            try {
                switch (type) {
                    case FrameDescriptor.HELLO_OK -> {
                        ServerHello hello = ServerHello.read(frame);
                        Protocol.handshakeDone(ctx.pipeline(), hello.maxFrameBytes(), hello.heartbeatMillis());
                        handshake.complete(hello);
                    }
                    case FrameDescriptor.RESULT -> {
                        boolean more = (flags & FrameDescriptor.FLAG_MORE) != 0;
                        Call call = more ? calls.get(id) : calls.remove(id);
                        kept = call != null && call.add(frame, !more);
                    }
                    case FrameDescriptor.DELIVERY -> {
                        ClientStream<?> stream = streamsById.get(id);
                        kept = stream != null && stream.delivered(frame);
                    }
                    case FrameDescriptor.ERROR -> {
                        ErrorCode code = ErrorCode.of(Fields.readU16(frame));
                        String message = Fields.readString(frame);
                        if ((flags & FrameDescriptor.FLAG_STREAM) != 0) {
                            ClientStream<?> stream = streamsById.remove(id);
                            if (stream != null && code == ErrorCode.STORE_CLOSED) {
                                stream.endedByBroker();     // the broker is stopping: open again, maybe elsewhere
                            } else if (stream != null) {
                                stream.fail(code.toException(message));
                                streamsByKey.remove(stream.key(), stream);
                            }
                        } else if (id == FrameDescriptor.CONNECTION_ID) {
                            closeBecause("broker at " + endpoint + " closed the connection: " + message);
                            handshake.completeExceptionally(code.toException(message));
                            ctx.close();
                        } else {
                            Call call = calls.remove(id);
                            if (call != null) {
                                call.fail(code, message);
                            }
                        }
                    }
                    default -> throw new MalformedFrameException("unexpected frame type " + type + " from broker");
                }
            } catch (MalformedFrameException e) {
                LOG.warn("closing connection to {}: {}", endpoint, e.getMessage());
                closeBecause("broker at " + endpoint + " broke the protocol: " + e.getMessage());
                ctx.close();
            } finally {
                if (!kept) {
                    frame.release();
                }
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel() != channel) {
                return;     // a channel already replaced
            }
            String reason = "connection to mikyu broker at " + endpoint + " was closed";
            handshake.completeExceptionally(new StoreClosedException(reason));
            if (closedBecause == null && reconnects()) {
                lost(reason);
                return;
            }
            closeBecause(reason);
            failAll();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!handshake.isDone()) {
                // Before the hello's answer: most likely TLS (an untrusted certificate, a plain broker). Say so.
                Throwable root = cause instanceof io.netty.handler.codec.DecoderException && cause.getCause() != null
                        ? cause.getCause() : cause;
                handshake.completeExceptionally(new StoreClosedException("cannot connect to mikyu broker at "
                        + endpoint + ": " + root));
                ctx.close();
                return;
            }
            LOG.warn("closing connection to {}: {}", endpoint, cause.toString());
            if (!reconnects()) {
                closeBecause("connection to " + endpoint + " failed: " + cause);
            }
            ctx.close();
        }
    }

    /** A call's channel was lost before its answer came. */
    private static final class Lost extends RuntimeException {
        Lost(String message) {
            super(message, null, false, false);
        }
    }

    /** One request waiting for its answer: the frames of its result, or an error. */
    private static final class Call {
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
}
