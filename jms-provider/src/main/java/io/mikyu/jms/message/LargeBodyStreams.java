package io.mikyu.jms.message;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The object properties that stream a BytesMessage's body instead of holding it, named as Artemis' {@code JMS_AMQ_*}
 * are (so code written for those reads the same): set on the producer's message, {@link #INPUT_STREAM} is read to
 * its end when the message is sent; set on a received message, {@link #SAVE_STREAM} copies the body into an
 * {@code OutputStream} and returns when it is done, {@link #OUTPUT_STREAM} does the same on a thread of its own.
 */
public final class LargeBodyStreams {

    /** An {@code InputStream} the body is read from at send. */
    public static final String INPUT_STREAM = "JMS_MIKYU_InputStream";
    /** An {@code OutputStream} the received body is copied into; the call returns when it is written. */
    public static final String SAVE_STREAM = "JMS_MIKYU_SaveStream";
    /** An {@code OutputStream} the received body is copied into in the background; the call returns at once. */
    public static final String OUTPUT_STREAM = "JMS_MIKYU_OutputStream";

    private static final Logger LOG = LoggerFactory.getLogger(LargeBodyStreams.class);
    private static final int COPY_BUFFER = 64 * 1024;

    private LargeBodyStreams() {
    }

    /** Whether {@code name} is one of the stream properties (never a message property). */
    static boolean isStreamProperty(String name) {
        return INPUT_STREAM.equals(name) || SAVE_STREAM.equals(name) || OUTPUT_STREAM.equals(name);
    }

    /** Copies {@code in} to {@code out} through one small buffer; returns the bytes copied. */
    static long copy(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[COPY_BUFFER];
        long total = 0;
        for (int n; (n = in.read(buf)) >= 0; ) {
            out.write(buf, 0, n);
            total += n;
        }
        out.flush();
        return total;
    }

    /** Runs a copy on a daemon thread of its own; a failure is logged, there being nobody to throw it to. */
    static void inBackground(String what, CopyTask task) {
        Thread t = new Thread(() -> {
            try {
                task.run();
            } catch (IOException | RuntimeException e) {
                LOG.warn("copying {} into its OutputStream failed", what, e);
            }
        }, "mikyu-jms-output-stream");
        t.setDaemon(true);
        t.start();
    }

    /** A copy that may fail. */
    @FunctionalInterface
    interface CopyTask {
        void run() throws IOException;
    }
}
