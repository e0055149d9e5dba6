package io.mikyu.broker.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay on a loopback port between clients and a broker that breaks the network on command, for the fault
 * campaign. Each accepted client connection becomes a {@link Link} of two {@link Pipe}s (client to broker: UP,
 * broker to client: DOWN). A fault applies to the links open when it is injected; connections made later are relayed
 * normally, as after a network path came back. The faults:
 *
 * <ul>
 *   <li>{@link #drop()}: both sockets closed, both peers see the connection end at once;</li>
 *   <li>{@link #blackHole(Direction)}: bytes in that direction are swallowed and a peer's close is not passed on
 *       across it, so a peer learns of the loss only from its heartbeats; a black-holed link is never resumed
 *       with a gap in its bytes (TCP would not), {@link #heal()} closes it;</li>
 *   <li>{@link #halfClose(Direction)}: that direction is closed (FIN to its receiver), the other keeps flowing;</li>
 *   <li>{@link #halfOpen(Side)}: the socket to that side is closed, the other peer's stays open and silent, as when
 *       a peer's host vanished without a FIN reaching the other;</li>
 *   <li>{@link #delay(Direction, Duration)}: every chunk in that direction is passed on that much later, in order;</li>
 *   <li>{@link #stopReading(Side)}: the relay stops reading what that side sends, so its socket buffers fill and its
 *       writes back up, as with a peer that stops reading.</li>
 * </ul>
 * The relay records when each peer ended its side of a link, so a test can tell how long the peers took to notice.
 */
final class FaultProxy implements AutoCloseable {

    /** A direction of a link: UP from the client to the broker, DOWN from the broker to the client. */
    enum Direction {
        UP, DOWN, BOTH;

        boolean includes(Direction d) {
            return this == BOTH || this == d;
        }
    }

    /** One peer of a link. */
    enum Side {
        CLIENT, BROKER
    }

    private final ServerSocket server;
    private final int targetPort;
    private final List<Link> links = new CopyOnWriteArrayList<>();

    FaultProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "fault-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** {@code tcp://127.0.0.1:<port>} of the relay. */
    String uri() {
        return "tcp://127.0.0.1:" + server.getLocalPort();
    }

    /** The links open now (for a fault to name what it hit). */
    List<Link> openLinks() {
        List<Link> open = new ArrayList<>();
        for (Link l : links) {
            if (!l.isClosed()) {
                open.add(l);
            }
        }
        return open;
    }

    /** Closes every open link: both peers see their connection end. Returns the links it hit. */
    List<Link> drop() {
        List<Link> hit = openLinks();
        hit.forEach(Link::close);
        return hit;
    }

    List<Link> blackHole(Direction d) {
        List<Link> hit = openLinks();
        for (Link l : hit) {
            if (d.includes(Direction.UP)) {
                l.up.blackHole = true;
            }
            if (d.includes(Direction.DOWN)) {
                l.down.blackHole = true;
            }
        }
        return hit;
    }

    List<Link> halfClose(Direction d) {
        List<Link> hit = openLinks();
        for (Link l : hit) {
            if (d.includes(Direction.UP)) {
                l.up.shutdown();
            }
            if (d.includes(Direction.DOWN)) {
                l.down.shutdown();
            }
        }
        return hit;
    }

    /** The socket to {@code gone} is closed; the other peer hears nothing more and no FIN. */
    List<Link> halfOpen(Side gone) {
        List<Link> hit = openLinks();
        for (Link l : hit) {
            l.up.blackHole = true;
            l.down.blackHole = true;
            closeQuietly(gone == Side.CLIENT ? l.client : l.broker);
        }
        return hit;
    }

    List<Link> delay(Direction d, Duration by) {
        List<Link> hit = openLinks();
        for (Link l : hit) {
            if (d.includes(Direction.UP)) {
                l.up.delayNanos = by.toNanos();
            }
            if (d.includes(Direction.DOWN)) {
                l.down.delayNanos = by.toNanos();
            }
        }
        return hit;
    }

    /** Stops reading what {@code side} sends, on every open link. */
    List<Link> stopReading(Side side) {
        List<Link> hit = openLinks();
        for (Link l : hit) {
            (side == Side.CLIENT ? l.up : l.down).paused = true;
        }
        return hit;
    }

    /**
     * Ends every fault: delays and paused reads stop (what waited is passed on, in order); links that were
     * black-holed, half-open or half-closed are closed, as peers that already gave up on them would find.
     */
    void heal() {
        for (Link l : links) {
            l.up.delayNanos = 0;
            l.down.delayNanos = 0;
            l.up.resume();
            l.down.resume();
            if (l.up.blackHole || l.down.blackHole || l.up.shut || l.down.shut) {
                l.close();
            }
        }
        links.removeIf(Link::isClosed);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket broker = new Socket();
                try {
                    broker.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                } catch (IOException e) {
                    closeQuietly(client);
                    closeQuietly(broker);
                    continue;
                }
                client.setTcpNoDelay(true);
                broker.setTcpNoDelay(true);
                Link link = new Link(client, broker);
                links.add(link);
                link.start();
            } catch (IOException e) {
                // closed
            }
        }
    }

    @Override
    public void close() {
        closeQuietly(server);
        for (Link l : links) {
            l.close();
        }
        links.clear();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // already closed
        }
    }

    /** One relayed client connection: a socket to the client and one to the broker. */
    static final class Link {
        final Socket client;
        final Socket broker;
        final Pipe up;
        final Pipe down;
        /** {@link System#nanoTime()} when each peer ended its side (its socket read the end); 0 while open. */
        volatile long clientEndedNanos;
        volatile long brokerEndedNanos;

        Link(Socket client, Socket broker) {
            this.client = client;
            this.broker = broker;
            this.up = new Pipe(this, client, broker, Direction.UP);
            this.down = new Pipe(this, broker, client, Direction.DOWN);
        }

        void start() {
            up.start();
            down.start();
        }

        boolean isClosed() {
            return client.isClosed() && broker.isClosed();
        }

        /** Whether both peers ended their sides, or the relay closed both. */
        boolean bothEnded() {
            return (clientEndedNanos != 0 || client.isClosed()) && (brokerEndedNanos != 0 || broker.isClosed());
        }

        void close() {
            closeQuietly(client);
            closeQuietly(broker);
            up.resume();
            down.resume();
        }

        /** The peer at the source of {@code pipe} ended its side (read -1 or failed). */
        void ended(Pipe pipe) {
            long now = System.nanoTime();
            if (pipe.direction == Direction.UP) {
                if (clientEndedNanos == 0) {
                    clientEndedNanos = now;
                }
            } else if (brokerEndedNanos == 0) {
                brokerEndedNanos = now;
            }
            // The end travels to the other peer unless this direction is black-holed (a partition carries no FIN).
            if (!pipe.blackHole) {
                pipe.shutdownAfterQueued();
            }
            if (clientEndedNanos != 0 && brokerEndedNanos != 0) {
                close();    // both peers are done with it
            }
        }
    }

    /** One direction of a link: a reader thread and a writer thread with the bytes in transit between them. */
    static final class Pipe {
        private static final byte[] END = new byte[0];

        private final Link link;
        private final Socket from;
        private final Socket to;
        final Direction direction;
        private final LinkedBlockingQueue<Chunk> inTransit = new LinkedBlockingQueue<>();
        volatile boolean blackHole;
        volatile long delayNanos;
        volatile boolean paused;
        volatile boolean shut;

        private record Chunk(byte[] bytes, long dueNanos) {
        }

        Pipe(Link link, Socket from, Socket to, Direction direction) {
            this.link = link;
            this.from = from;
            this.to = to;
            this.direction = direction;
        }

        void start() {
            Thread reader = new Thread(this::read, "fault-proxy-" + direction + "-read");
            reader.setDaemon(true);
            reader.start();
            Thread writer = new Thread(this::write, "fault-proxy-" + direction + "-write");
            writer.setDaemon(true);
            writer.start();
        }

        private void read() {
            byte[] buf = new byte[16 * 1024];
            try {
                InputStream in = from.getInputStream();
                while (true) {
                    awaitNotPaused();
                    int n = in.read(buf);
                    if (n < 0) {
                        break;
                    }
                    if (blackHole || shut) {
                        continue;
                    }
                    byte[] copy = new byte[n];
                    System.arraycopy(buf, 0, copy, 0, n);
                    inTransit.add(new Chunk(copy, System.nanoTime() + delayNanos));
                }
            } catch (IOException | InterruptedException e) {
                // the socket was closed (by a fault or the relay)
            }
            link.ended(this);
        }

        private void write() {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Chunk c = inTransit.poll(100, TimeUnit.MILLISECONDS);
                    if (c == null) {
                        if (to.isClosed()) {
                            return;
                        }
                        continue;
                    }
                    if (c.bytes == END) {
                        to.shutdownOutput();
                        return;
                    }
                    // The relay's latency: a chunk goes on when it is due, in order. Time passing is the fault here,
                    // not a wait for something to happen.
                    long wait;
                    while ((wait = c.dueNanos - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    if (blackHole || shut) {
                        continue;
                    }
                    out.write(c.bytes);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the receiving socket was closed
            }
        }

        private synchronized void awaitNotPaused() throws InterruptedException {
            while (paused && !from.isClosed()) {
                wait(100);
            }
        }

        synchronized void resume() {
            paused = false;
            notifyAll();
        }

        /** Closes this direction now: its receiver reads the end; bytes in transit are dropped. */
        void shutdown() {
            shut = true;
            try {
                to.shutdownOutput();
            } catch (IOException e) {
                // closed already
            }
        }

        /** Passes the end on to the receiver after the bytes already in transit. */
        void shutdownAfterQueued() {
            inTransit.add(new Chunk(END, 0));
        }
    }
}
