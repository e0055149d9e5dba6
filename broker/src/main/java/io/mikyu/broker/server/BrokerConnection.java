package io.mikyu.broker.server;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.security.Principal;
import io.mikyu.engine.security.SecurityRealm;
import io.mikyu.engine.spi.AsyncWrites;
import io.mikyu.protocol.ClientHello;
import io.mikyu.protocol.ErrorCode;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.FrameDescriptor;
import io.mikyu.protocol.MalformedFrameException;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Protocol;
import io.mikyu.protocol.ServerHello;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.security.auth.x500.X500Principal;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * One client connection on the broker: the handshake, then requests. Each request is decoded here on the event
 * loop and run on a worker thread (or, if it may wait, on the waiting pool), so no engine call ever blocks an
 * event loop; its answer is written from that thread. A frame that breaks the protocol gets a connection-level
 * {@link ErrorCode#PROTOCOL} error and the connection is closed; nothing a client sends can throw out of here.
 */
final class BrokerConnection extends SimpleChannelInboundHandler<ByteBuf> {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerConnection.class);

    /**
     * Requests of one connection read and not yet answered (long polls aside) at which the broker stops reading
     * it; it reads again at half. With the write watermarks this bounds what one client costs: a client that sends
     * requests faster than it reads answers stops being read instead of piling up work and answers.
     */
    static final int MAX_IN_FLIGHT = 256;

    private record Parked(int id, Request request) {
    }

    private final BrokerServer server;
    private final ConnectionState state;
    private final ConcurrentHashMap<Integer, Future<?>> waiting = new ConcurrentHashMap<>();
    /**
     * Requests that came up for a worker while the connection was not writable: they wait here, holding no thread
     * and producing no answer, until the client has read enough of what it was sent.
     */
    private final ConcurrentLinkedQueue<Parked> parked = new ConcurrentLinkedQueue<>();
    /** Requests read and not answered yet, long polls aside (the waiting pool bounds those). */
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Enqueues of this connection waiting for their queue's consumers (producer pacing); on the event loop only. */
    private int paced;
    /**
     * Enqueues read while one of this connection's enqueues is paced, in the order they came: started, in that
     * order, once none is paced. The connection is still read meanwhile: the JMS connections of one application
     * share it, and their consumers' takes and acks are what make room for the paced producer. On the event loop
     * only; bounded by {@link #MAX_IN_FLIGHT} (each counts as in progress).
     */
    private final ArrayDeque<Held> heldBehindPaced = new ArrayDeque<>();
    private Channel channel;
    private String clientName = "?";
    private int maxFrameBytes = Protocol.HANDSHAKE_FRAME_BYTES;
    private boolean handshakeDone;
    /** The hello was read and its credentials are being checked on a worker; nothing else may come meanwhile. */
    private boolean authenticating;
    private boolean closing;

    /** Why the connection may not come in (a connection limit), or {@code null}. */
    private final String refusal;

    BrokerConnection(BrokerServer server, ConnectionState state, String refusal) {
        this.server = server;
        this.state = state;
        this.refusal = refusal;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        channel = ctx.channel();
        super.channelActive(ctx);
        if (refusal != null) {
            refuse(ctx, ErrorCode.BUSY, refusal, false);   // before any work is done for it
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
        if (closing) {
            return;
        }
        int type = FrameDescriptor.type(frame);
        int id = FrameDescriptor.requestId(frame);
        frame.skipBytes(FrameDescriptor.HEADER_BYTES);
        try {
            if (!handshakeDone) {
                if (authenticating) {
                    throw new MalformedFrameException("a frame of type " + type + " before the broker answered the"
                            + " hello");
                }
                hello(ctx, type, id, frame);
                return;
            }
            if (type == FrameDescriptor.CREDIT) {
                ConnectionStreams streams = state.streams();
                if (id == FrameDescriptor.CONNECTION_ID) {
                    throw new MalformedFrameException("credit for stream id 0");
                }
                streams.credit(id, io.mikyu.protocol.StreamDescriptor.readCreditFrame(frame));
                return;
            }
            Op op = Op.of(type);
            if (op == null || id == FrameDescriptor.CONNECTION_ID) {
                throw new MalformedFrameException(op == null ? "unknown request type " + type
                        : "request " + op + " with request id 0, which is the connection's");
            }
            server.requests.increment();
            Request request;
            try {
                Authorization.check(op, frame.duplicate(), state.principal());
                request = Requests.decode(op, frame, state);
                Fields.expectEnd(frame);
            } catch (MalformedFrameException e) {
                throw e;
            } catch (RuntimeException e) {
                if (e instanceof AccessDeniedException) {
                    server.accessDenied.increment();
                    LOG.debug("client '{}': {}", clientName, e.getMessage());
                }
                // A well-formed frame with a value the engine refuses (a priority of 12): an error, as in-process.
                sendError(id, e);
                return;
            }
            dispatch(id, request);
        } catch (MalformedFrameException e) {
            protocolError(ctx, e.getMessage());
        }
    }

    private void hello(ChannelHandlerContext ctx, int type, int id, ByteBuf frame) {
        if (type != FrameDescriptor.HELLO || id != FrameDescriptor.CONNECTION_ID) {
            throw new MalformedFrameException("the first frame must be a hello (type 1, request id 0), not type "
                    + type);
        }
        ClientHello hello = ClientHello.read(frame);
        if (hello.version() < Protocol.MIN_VERSION) {
            throw new MalformedFrameException("protocol version " + hello.version() + " is not supported; this"
                    + " broker speaks " + Protocol.MIN_VERSION + " to " + Protocol.VERSION);
        }
        clientName = hello.clientName() == null ? "?" : hello.clientName();
        SecurityRealm realm = server.options().realm();
        if (!realm.enabled()) {
            accept(ctx, hello, Principal.UNRESTRICTED);
            return;
        }
        X500Principal subject = hello.password() == null ? peerSubject(ctx) : null;
        if (subject != null) {
            // A verified client certificate that names a user (users.<name>.certificate): no password to check.
            Principal who = realm.authenticateCertificate(subject, hello.user());
            if (who != null) {
                accept(ctx, hello, who);
                return;
            }
        }
        Admission admission = server.admission;
        java.net.SocketAddress remote = ctx.channel().remoteAddress();
        long wait = admission.loginWaitMillis(remote);
        if (wait > 0) {
            // An address that keeps failing waits, and its password is not even checked meanwhile.
            refuse(ctx, ErrorCode.AUTHENTICATION, "too many failed logins from this address: try again in " + wait
                    + " ms", false);
            return;
        }
        // PBKDF2 costs a good part of a second by design: never on the event loop, and on a pool of its own, so a
        // flood of logins waits there instead of taking the workers that serve requests.
        authenticating = true;
        String user = hello.user();
        char[] password = hello.password() == null ? null
                : new String(hello.password(), StandardCharsets.UTF_8).toCharArray();
        try {
            admission.authPool().execute(() -> {
                try {
                    Principal who = realm.authenticate(user, password);
                    admission.loginSucceeded(remote);
                    ctx.executor().execute(() -> accept(ctx, hello, who));
                } catch (AuthenticationException e) {
                    admission.loginFailed(remote);
                    ctx.executor().execute(() -> refuse(ctx, ErrorCode.AUTHENTICATION, e.getMessage()));
                } catch (RuntimeException e) {
                    LOG.error("checking the credentials of client '{}' failed", clientName, e);
                    ctx.executor().execute(() -> refuse(ctx, ErrorCode.GENERIC, "cannot check credentials: " + e));
                } finally {
                    if (password != null) {
                        java.util.Arrays.fill(password, '\0');
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            refuse(ctx, ErrorCode.BUSY, "the broker is busy checking other logins; try again", false);
        }
    }

    /** The subject of the client's certificate, verified by TLS; {@code null} without TLS or without one. */
    private static X500Principal peerSubject(ChannelHandlerContext ctx) {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls == null) {
            return null;
        }
        try {
            Certificate[] chain = tls.engine().getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate x ? x.getSubjectX500Principal() : null;
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    /** Credentials refused: an error with id 0, and the connection is closed. */
    private void refuse(ChannelHandlerContext ctx, ErrorCode code, String message) {
        refuse(ctx, code, message, true);
    }

    /**
     * @param checked whether the refusal followed a check of the client's credentials (counted and logged as a
     *                warning); refusals for a limit are counted by {@link Admission} and logged at debug level only,
     *                so that a flood of them does not flood the log as well
     */
    private void refuse(ChannelHandlerContext ctx, ErrorCode code, String message, boolean checked) {
        if (closing) {
            return;
        }
        closing = true;
        if (checked && code == ErrorCode.AUTHENTICATION) {
            server.authenticationFailures.increment();
        }
        if (checked) {
            LOG.warn("refused client '{}' from {}: {}", clientName, ctx.channel().remoteAddress(), message);
        } else {
            LOG.debug("refused client '{}' from {}: {}", clientName, ctx.channel().remoteAddress(), message);
        }
        ByteBuf out = FrameDescriptor.writeHeader(ctx.alloc().buffer(), FrameDescriptor.ERROR, 0,
                FrameDescriptor.CONNECTION_ID);
        out.writeShort(code.code());
        Fields.writeString(out, message);
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    }

    private void accept(ChannelHandlerContext ctx, ClientHello hello, Principal who) {
        if (closing || !ctx.channel().isActive()) {
            return;
        }
        state.authenticated(who);
        BrokerOptions options = server.options();
        maxFrameBytes = Math.min(hello.maxFrameBytes(), options.maxFrameBytes());
        int heartbeat = (int) options.heartbeat().toMillis();
        long features = hello.features() & Protocol.FEATURES;
        if ((features & Protocol.FEATURE_STREAMS) != 0) {
            state.streams(new ConnectionStreams(server, ctx.channel(), maxFrameBytes));
        }
        if ((features & Protocol.FEATURE_LARGE_BODIES) != 0) {
            state.bodies(new ConnectionBodies(state.mikyu(), maxFrameBytes));
        }
        ServerHello answer = new ServerHello(Math.min(hello.version(), Protocol.VERSION), features, maxFrameBytes,
                heartbeat, options.serverName(), state.mikyu().storeId());
        ByteBuf out = FrameDescriptor.writeHeader(ctx.alloc().buffer(), FrameDescriptor.HELLO_OK, 0,
                FrameDescriptor.CONNECTION_ID);
        answer.write(out);
        Protocol.handshakeDone(ctx.pipeline(), maxFrameBytes, heartbeat);
        handshakeDone = true;
        authenticating = false;
        ctx.writeAndFlush(out);
        LOG.debug("client '{}' connected from {} as {}", clientName, ctx.channel().remoteAddress(), who);
    }

    private void dispatch(int id, Request request) {
        if (server.isStopping()) {
            sendError(id, new StoreClosedException("the broker is stopping"));
            return;
        }
        try {
            if (request.waits()) {
                // On the event loop: a long poll with something to answer at once needs no waiting thread.
                if (request.inline() != null && channel.isWritable() && answer(id, request.inline())) {
                    return;
                }
                Future<?> f = server.waiters().submit(() -> {
                    try {
                        run(id, request);
                    } finally {
                        waiting.remove(id);
                    }
                });
                waiting.put(id, f);
                if (f.isDone()) {
                    waiting.remove(id);
                }
            } else {
                if (inFlight.incrementAndGet() >= MAX_IN_FLIGHT) {
                    channel.eventLoop().execute(this::updateAutoRead);
                }
                if (request.async() instanceof Request.EnqueueCall && (paced > 0 || !heldBehindPaced.isEmpty())) {
                    // Behind a paced enqueue: one producer's enqueues keep their order, and hold no thread.
                    heldBehindPaced.add(new Held(id, request));
                    return;
                }
                start(id, request);
            }
        } catch (RejectedExecutionException e) {
            sendError(ErrorCode.BUSY, id, server.isStopping() ? "the broker is stopping"
                    : "the broker is busy: too many requests in progress (" + e.getMessage() + "); try again");
        }
    }

    /** Starts a request that does not wait: a write on the event loop where it can, else on a worker. */
    private void start(int id, Request request) {
        if (request.async() != null && channel.isWritable() && startAsync(id, request.async())) {
            return;
        }
        try {
            server.workers().execute(() -> run(id, request));
        } catch (RejectedExecutionException e) {
            finished();
            throw e;
        }
    }

    /** Starts the enqueues held behind paced ones, in order, until one of them is paced in turn. */
    private void startHeld() {
        Held next;
        while (!closing && paced == 0 && (next = heldBehindPaced.poll()) != null) {
            try {
                start(next.id(), next.request());
            } catch (RejectedExecutionException e) {
                sendError(ErrorCode.BUSY, next.id(), server.isStopping() ? "the broker is stopping"
                        : "the broker is busy: too many requests in progress (" + e.getMessage() + "); try again");
            }
        }
    }

    private record Held(int id, Request request) {
    }

    /**
     * Starts a write on the event loop; its completion answers it (on the event loop too). Returns {@code false}
     * if the engine would not start it so (the caller gives it to a worker); a write refused at once (a malformed
     * batch, an unknown queue) is answered with its error here.
     */
    private boolean startAsync(int id, Request.AsyncCall call) {
        server.asyncStarted();
        boolean started = false;
        try {
            started = call.start(channel.eventLoop(), new AsyncWrites.Completion() {
                @Override
                public void completed(long value) {
                    try {
                        Reply reply = new Reply(channel.alloc(), id, maxFrameBytes);
                        reply.body().writeLong(value);
                        channel.writeAndFlush(reply.frames().get(0));
                    } finally {
                        finished();
                        server.asyncFinished();
                    }
                }

                @Override
                public void failed(RuntimeException failure) {
                    try {
                        sendError(id, failure);
                    } finally {
                        finished();
                        server.asyncFinished();
                    }
                }

                @Override
                public void paced(boolean waiting) {
                    paced += waiting ? 1 : -1;
                    if (paced == 0 && !heldBehindPaced.isEmpty()) {
                        // After the task that called this has started the paced write: the held ones follow it.
                        channel.eventLoop().execute(BrokerConnection.this::startHeld);
                    }
                }
            });
            return started;
        } catch (RuntimeException e) {
            finished();
            sendError(id, e);
            return true;
        } finally {
            if (!started) {
                server.asyncFinished();
            }
        }
    }

    private void run(int id, Request request) {
        if (!channel.isWritable() && channel.isActive()) {
            // The client is behind reading what it was sent: produce nothing more for it until it catches up.
            parked.add(new Parked(id, request));
            if (channel.isWritable()) {
                resumeParked();
            }
            return;
        }
        try {
            answer(id, request);
        } finally {
            if (!request.waits()) {
                finished();
            }
        }
    }

    private void answer(int id, Request request) {
        answer(id, reply -> {
            request.call().run(reply);
            return true;
        });
    }

    /**
     * Runs {@code call} into a reply and sends it, or its failure as an ERROR; {@code false} (nothing sent) if the
     * call had nothing to answer yet.
     */
    private boolean answer(int id, Request.InlineCall call) {
        Reply reply = new Reply(channel.alloc(), id, maxFrameBytes);
        try {
            if (!call.answer(reply)) {
                reply.release();
                return false;
            }
        } catch (InterruptedException e) {
            reply.release();
            sendError(id, new StoreClosedException(server.isStopping() ? "the broker is stopping"
                    : "the request was cancelled"));
            return true;
        } catch (Throwable e) {
            reply.release();
            if (!(e instanceof RuntimeException)) {
                LOG.error("request {} of client '{}' failed", id, clientName, e);
            }
            sendError(id, e);
            return true;
        }
        send(reply);
        return true;
    }

    private void send(Reply reply) {
        List<ByteBuf> frames = reply.frames();
        for (int i = 0; i < frames.size() - 1; i++) {
            channel.write(frames.get(i));
        }
        channel.writeAndFlush(frames.get(frames.size() - 1));
        Runnable after = reply.afterSent();
        if (after != null) {
            after.run();
        }
    }

    /** A request (not a long poll) was answered. */
    private void finished() {
        inFlight.decrementAndGet();
        if (!channel.config().isAutoRead()) {
            channel.eventLoop().execute(this::updateAutoRead);
        }
    }

    /**
     * Reads the connection only while its outbound buffer is below the high watermark and it has fewer than
     * {@link #MAX_IN_FLIGHT} requests in progress (again from half of that; enqueues held behind a paced one
     * count). On the event loop only, so the last decision is the one that stands.
     */
    private void updateAutoRead() {
        if (closing) {
            return;
        }
        boolean reading = channel.config().isAutoRead();
        int n = inFlight.get();
        if (reading && (!channel.isWritable() || n >= MAX_IN_FLIGHT)) {
            channel.config().setAutoRead(false);
        } else if (!reading && channel.isWritable() && n <= MAX_IN_FLIGHT / 2) {
            channel.config().setAutoRead(true);
        }
    }

    /** Requests parked while the connection was not writable go to the workers again (each checks again). */
    private void resumeParked() {
        Parked p;
        while (channel.isWritable() && (p = parked.poll()) != null) {
            Parked next = p;
            try {
                if (next.request().waits()) {
                    server.waiters().execute(() -> {
                        try {
                            run(next.id(), next.request());
                        } finally {
                            waiting.remove(next.id());
                        }
                    });
                } else {
                    server.workers().execute(() -> run(next.id(), next.request()));
                }
            } catch (RejectedExecutionException e) {
                if (!next.request().waits()) {
                    finished();
                }
                sendError(ErrorCode.BUSY, next.id(), server.isStopping() ? "the broker is stopping"
                        : "the broker is busy; try again");
            }
        }
    }

    /** The outbound buffer crossed a watermark: stop or resume reading, pushing and answering. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        updateAutoRead();
        if (ctx.channel().isWritable()) {
            ConnectionStreams streams = state.streamsOrNull();
            if (streams != null) {
                streams.writable();
            }
            resumeParked();
        }
        super.channelWritabilityChanged(ctx);
    }

    private void sendError(int id, Throwable e) {
        sendError(ErrorCode.of(e), id, ErrorCode.messageOf(e));
    }

    private void sendError(ErrorCode code, int id, String message) {
        ByteBuf out = FrameDescriptor.writeHeader(channel.alloc().buffer(), FrameDescriptor.ERROR, 0, id);
        out.writeShort(code.code());
        Fields.writeString(out, message);
        channel.writeAndFlush(out);
    }

    private void protocolError(ChannelHandlerContext ctx, String message) {
        if (closing) {
            return;
        }
        closing = true;
        LOG.warn("closing connection of client '{}' from {}: {}", clientName, ctx.channel().remoteAddress(),
                message);
        ByteBuf out = FrameDescriptor.writeHeader(ctx.alloc().buffer(), FrameDescriptor.ERROR, 0,
                FrameDescriptor.CONNECTION_ID);
        out.writeShort(ErrorCode.PROTOCOL.code());
        Fields.writeString(out, message);
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            // Garbage, a negative or oversized length: the frame decoder could not cut a frame.
            Throwable reason = cause.getCause() != null ? cause.getCause() : cause;
            protocolError(ctx, reason.getMessage() == null ? reason.toString() : reason.getMessage());
        } else {
            LOG.debug("closing connection of client '{}': {}", clientName, cause.toString());
            ctx.close();
        }
    }

    /** The client is gone: its waiting calls stop waiting. Leases it held run out and their tasks come back. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        for (Future<?> f : waiting.values()) {
            f.cancel(true);
        }
        waiting.clear();
        parked.clear();
        ConnectionStreams streams = state.streamsOrNull();
        if (streams != null) {
            streams.closeAll();
        }
        state.groupMember.close(); // its groups move on once their leases end
        ConnectionBodies bodies = state.bodiesOrNull();
        if (bodies != null) {
            bodies.closeAll(); // an upload the client did not finish is discarded
        }
        server.reclaimLater(state.releaseAll());
        LOG.debug("client '{}' disconnected", clientName);
        super.channelInactive(ctx);
    }
}
