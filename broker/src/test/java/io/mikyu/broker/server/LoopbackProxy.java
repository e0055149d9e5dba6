package io.mikyu.broker.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on a loopback port in front of a broker, for fault tests: it forwards bytes both ways until told to
 * drop one direction (the bytes are read and thrown away, as a network that stopped carrying them would) or to cut
 * every relayed connection (both sides see the connection end; new connections are relayed normally again).
 */
final class LoopbackProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean dropUpstream;
    private volatile boolean dropDownstream;
    /** New connections are closed at once, as a network that does not reach the broker would. */
    private volatile boolean refusing;
    /** Everything relayed from the broker to clients so far, as ISO-8859-1 text (to look for a payload in it). */
    private final StringBuffer downstream = new StringBuffer();

    LoopbackProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "loopback-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** {@code tcp://127.0.0.1:<port>} of the relay. */
    String uri() {
        return "tcp://127.0.0.1:" + server.getLocalPort();
    }

    /** From now on, bytes from clients to the broker are dropped. */
    void dropUpstream() {
        dropUpstream = true;
    }

    /** From now on, bytes from the broker to clients are dropped. */
    void dropDownstream() {
        dropDownstream = true;
    }

    /** From now on (or no longer), new connections are closed as soon as they are accepted. */
    void refuse(boolean refuse) {
        refusing = refuse;
    }

    /** Whether {@code text} (ASCII) was relayed from the broker to a client. */
    boolean relayedDownstream(String text) {
        return downstream.indexOf(text) >= 0;
    }

    /** How many times {@code bytes} were relayed from the broker to clients (a frame, as its bytes on the wire). */
    int timesRelayedDownstream(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int times = 0;
        for (int at = downstream.indexOf(text); at >= 0; at = downstream.indexOf(text, at + text.length())) {
            times++;
        }
        return times;
    }

    /** Ends every relayed connection; later connections are relayed both ways again. */
    void cut() {
        dropUpstream = false;
        dropDownstream = false;
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (refusing) {
                    closeQuietly(client);
                    continue;
                }
                Socket broker = new Socket();
                broker.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                sockets.add(client);
                sockets.add(broker);
                relay(client, broker, true);
                relay(broker, client, false);
            } catch (IOException e) {
                // closed, or the broker is not there: the client sees its connection fail
            }
        }
    }

    private void relay(Socket from, Socket to, boolean up) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (up ? dropUpstream : dropDownstream) {
                        continue;
                    }
                    if (!up) {
                        downstream.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side ended: end the other too
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "loopback-proxy-" + (up ? "up" : "down"));
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        cut();
    }
}
