package io.mikyu.broker.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.netty4.NettyAllocatorMetrics;
import io.micrometer.core.instrument.binder.netty4.NettyEventExecutorMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TimeSource;
import io.mikyu.protocol.Protocol;
import io.mikyu.transport.Endpoint;
import io.mikyu.transport.Tls;
import io.mikyu.transport.Transport;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Serves one {@link Mikyu} to many clients over the mikyu protocol ({@code docs/protocol.md}), on every endpoint
 * of its options at once.
 *
 * <p>Threads: Netty's event loops only read, decode and write frames. Engine calls run on a bounded pool of
 * workers; calls that may wait (long polls) park on a separate pool, so a thousand idle consumers neither block an
 * event loop nor hold up producers. The broker does not own the store: whoever opened it closes it, after
 * {@link #close()}.
 */
public final class BrokerServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerServer.class);

    /** Requests queued for a worker before the broker answers "busy": a bound on memory under overload. */
    private static final int MAX_QUEUED_REQUESTS = 10_000;
    /**
     * A connection whose outbound buffer (answers and deliveries written, not yet taken by the socket) passes the
     * high watermark stops being read and pushed to; both resume below the low one. 4 MiB is one bounded read
     * answer plus room; a client that keeps up never gets near it.
     */
    static final int WRITE_LOW_WATERMARK = 1 << 20;
    static final int WRITE_HIGH_WATERMARK = 4 << 20;
    /** How often the stream timer renews the leases of pushed items and restarts pumps that found no thread. */
    private static final long STREAM_TICK_MILLIS = 100;

    private final Mikyu mikyu;
    private final BrokerOptions options;
    /** The store's clocks: the stream timer compares the engine's lease ends with this steady clock. */
    private final TimeSource clock;
    private final FilterCompilers filters = FilterCompilers.load();
    private final Transport transport = Transport.best();
    private final EventLoopGroup acceptors;
    private final EventLoopGroup loops;
    private final ThreadPoolExecutor workers;
    private final ThreadPoolExecutor waiters;
    private final ChannelGroup listeners = new DefaultChannelGroup("listeners", GlobalEventExecutor.INSTANCE);
    private final ChannelGroup clients = new DefaultChannelGroup("clients", GlobalEventExecutor.INSTANCE);
    /** Every open consumer stream, for the stream timer. */
    private final java.util.Set<PushStream<?>> streams = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.ScheduledExecutorService streamTimer;
    private final List<Endpoint> bound = new ArrayList<>();
    /** The TLS context of tls:// endpoints, made once; {@code null} without any. */
    private final Tls tls;
    /** Connection limits and the password checks' own pool. */
    final Admission admission;
    final Counter authenticationFailures;
    final Counter accessDenied;
    final Counter requests;
    /** Writes started on an event loop and not answered yet (see BrokerConnection#startAsync). */
    private final java.util.concurrent.atomic.AtomicInteger asyncInFlight =
            new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean stopping;
    private boolean closed;

    private BrokerServer(Mikyu mikyu, BrokerOptions options, TimeSource clock) {
        this.mikyu = mikyu;
        this.options = options;
        this.clock = clock;
        this.tls = options.endpoints().stream().anyMatch(Endpoint::isTls) ? Tls.forServer(options.tls()) : null;
        this.acceptors = transport.newGroup(1, "mikyu-broker-accept");
        this.loops = transport.newGroup(0, "mikyu-broker-io");
        this.workers = new ThreadPoolExecutor(options.workerThreads(), options.workerThreads(), 60,
                TimeUnit.SECONDS, new LinkedBlockingQueue<>(MAX_QUEUED_REQUESTS),
                new DefaultThreadFactory("mikyu-broker-worker", true));
        this.waiters = new ThreadPoolExecutor(0, options.maxWaitingCalls(), 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), new DefaultThreadFactory("mikyu-broker-waiter", true));
        this.streamTimer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                new DefaultThreadFactory("mikyu-broker-streams", true));
        streamTimer.scheduleWithFixedDelay(this::tickStreams, STREAM_TICK_MILLIS, STREAM_TICK_MILLIS,
                TimeUnit.MILLISECONDS);
        MeterRegistry meters = options.meterRegistry() != null ? options.meterRegistry() : new SimpleMeterRegistry();
        Gauge.builder("mikyu.broker.connections", clients, ChannelGroup::size)
                .description("client connections open").register(meters);
        Gauge.builder("mikyu.broker.streams", streams, java.util.Set::size)
                .description("consumer streams open").register(meters);
        Gauge.builder("mikyu.broker.outbound.bytes", this, BrokerServer::pendingOutboundBytes)
                .description("bytes written to clients and not yet taken by their sockets").register(meters);
        Gauge.builder("mikyu.broker.requests.waiting", waiters, ThreadPoolExecutor::getActiveCount)
                .description("long polls waiting").register(meters);
        Gauge.builder("mikyu.broker.requests.queued", workers, w -> w.getQueue().size())
                .description("requests queued for a worker").register(meters);
        this.requests = Counter.builder("mikyu.broker.requests").description("requests received").register(meters);
        this.authenticationFailures = Counter.builder("mikyu.broker.authentication.failures")
                .description("handshakes refused for their credentials").register(meters);
        this.admission = new Admission(options.admission(), meters, System::nanoTime);
        this.accessDenied = Counter.builder("mikyu.broker.access.denied")
                .description("requests refused for a missing permission").register(meters);
        if (options.meterRegistry() != null) {
            new NettyEventExecutorMetrics(loops).bindTo(meters);
            new NettyAllocatorMetrics(PooledByteBufAllocator.DEFAULT).bindTo(meters);
        }
    }

    /** Starts listening on every endpoint; fails, with nothing left listening, if one cannot be bound. */
    public static BrokerServer start(Mikyu mikyu, BrokerOptions options) {
        return start(mikyu, options, TimeSource.system());
    }

    /**
     * As {@link #start(Mikyu, BrokerOptions)}, for a store opened with a time source of its own
     * ({@link io.mikyu.engine.EngineConfig#timeSource()}): the broker renews leases by the store's clock.
     */
    public static BrokerServer start(Mikyu mikyu, BrokerOptions options, TimeSource clock) {
        BrokerServer server = new BrokerServer(mikyu, options, java.util.Objects.requireNonNull(clock));
        try {
            for (Endpoint endpoint : options.endpoints()) {
                server.bind(endpoint);
            }
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private void bind(Endpoint endpoint) {
        int heartbeat = (int) options.heartbeat().toMillis();
        ServerBootstrap bootstrap = new ServerBootstrap().group(acceptors, loops)
                .channel(transport.serverChannelClass(endpoint))
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        clients.add(ch);
                        String refusal = admission.admit(ch.remoteAddress());
                        if (refusal == null) {
                            ch.closeFuture().addListener(f -> admission.left(ch.remoteAddress()));
                        }
                        if (endpoint.isTls()) {
                            ch.pipeline().addLast("tls", tls.newHandler(ch, endpoint));
                        }
                        Protocol.install(ch.pipeline(), heartbeat);
                        ch.pipeline().addLast("broker", new BrokerConnection(BrokerServer.this,
                                new ConnectionState(mikyu, filters), refusal));
                    }
                });
        if (!endpoint.isUnix()) {
            bootstrap.option(ChannelOption.SO_REUSEADDR, true).childOption(ChannelOption.TCP_NODELAY, true);
        }
        bootstrap.childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(WRITE_LOW_WATERMARK, WRITE_HIGH_WATERMARK));
        if (endpoint.isUnix()) {
            deleteStaleSocket(endpoint);
        }
        ChannelFuture f = bootstrap.bind(endpoint.address()).awaitUninterruptibly();
        if (!f.isSuccess()) {
            throw new UncheckedIOException("cannot listen on " + endpoint + ": " + f.cause().getMessage(),
                    f.cause() instanceof IOException io ? io : new IOException(f.cause()));
        }
        listeners.add(f.channel());
        Endpoint actual = endpoint.bound(f.channel().localAddress());
        bound.add(actual);
        LOG.info("listening on {} ({} transport)", actual, transport);
    }

    /** A socket file left by a broker that was killed would make the bind fail; nobody can be listening on it. */
    private static void deleteStaleSocket(Endpoint endpoint) {
        try {
            Files.deleteIfExists(endpoint.socketPath());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove old socket file " + endpoint.socketPath(), e);
        }
    }

    /** Whether every endpoint is bound and the broker is not stopping: what {@code /health/ready} reports. */
    public boolean isReady() {
        return !stopping && bound.size() == options.endpoints().size() && mikyu.isOpen();
    }

    /** The endpoints listened on, with the real port where port 0 was asked for. */
    public List<Endpoint> endpoints() {
        return List.copyOf(bound);
    }

    BrokerOptions options() {
        return options;
    }

    boolean isStopping() {
        return stopping;
    }

    void asyncStarted() {
        asyncInFlight.incrementAndGet();
    }

    void asyncFinished() {
        asyncInFlight.decrementAndGet();
    }

    ExecutorService workers() {
        return workers;
    }

    /**
     * After three heartbeat intervals (the time a client that lost its connection has to come back with its
     * claims), deletes the temporary destinations and shared non-durable subscriptions those claims name that
     * nobody claimed again ({@link AbandonedJmsState}).
     */
    void reclaimLater(List<String> claims) {
        if (claims.isEmpty() || isStopping()) {
            return;
        }
        try {
            streamTimer.schedule(() -> workers.execute(() -> AbandonedJmsState.reclaim(mikyu, claims)),
                    3 * options.heartbeat().toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            // the broker is stopping: what was left stays for the next connection's owner or an operator
        }
    }

    ExecutorService waiters() {
        return waiters;
    }

    void streamOpened(PushStream<?> stream) {
        streams.add(stream);
    }

    void streamClosed(PushStream<?> stream) {
        streams.remove(stream);
    }

    /** Consumer streams open on every connection. */
    int openStreams() {
        return streams.size();
    }

    /** Runs one round of the stream timer now, and waits for it: a test that moved the store's clock. */
    void tickStreamsNow() throws InterruptedException {
        try {
            streamTimer.submit(this::tickStreams).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("the stream timer's round failed", e.getCause());
        }
    }

    /** Long polls waiting on a thread of their own now (the gauge {@code mikyu.broker.requests.waiting}). */
    int waitingCalls() {
        return waiters.getActiveCount();
    }

    private void tickStreams() {
        long now = clock.steadyMillis(); // the scale of the engine's lease ends: steady time
        for (PushStream<?> s : streams) {
            try {
                s.tick(now);
            } catch (RuntimeException e) {
                LOG.debug("stream timer: {}: {}", s, e.toString());
            }
        }
    }

    /**
     * Bytes written to clients and not yet taken by their sockets, over every connection: what slow readers cost
     * the broker's memory (the watermarks bound it per connection).
     */
    long pendingOutboundBytes() {
        long total = 0;
        for (Channel ch : clients) {
            io.netty.channel.ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
            if (out != null) {
                total += out.totalPendingWriteBytes();
            }
        }
        return total;
    }

    /**
     * Stops: no new connections or requests; waiting polls end; requests in progress finish (for at most the
     * shutdown grace) and their answers are sent; then every connection is closed. The store stays open.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopping = true;
        listeners.close().awaitUninterruptibly();
        streamTimer.shutdownNow();
        admission.close();
        waiters.shutdownNow();
        workers.shutdown();
        long graceMillis = options.shutdownGrace().toMillis();
        try {
            if (!workers.awaitTermination(graceMillis, TimeUnit.MILLISECONDS)) {
                LOG.warn("requests still running after {} ms; stopping anyway", graceMillis);
                workers.shutdownNow();
            }
            waiters.awaitTermination(1, TimeUnit.SECONDS);
            // Writes started on the event loops are answered from there once the writer completes them.
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
            while (asyncInFlight.get() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Answers are written by the workers; let the event loops send them before the connections close.
        clients.close().awaitUninterruptibly(Duration.ofSeconds(5).toMillis());
        for (Endpoint e : bound) {
            if (e.isUnix()) {
                try {
                    Files.deleteIfExists(e.socketPath());
                } catch (IOException ignored) {
                    // the next start removes it
                }
            }
        }
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5_000);
        acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5_000);
    }
}
