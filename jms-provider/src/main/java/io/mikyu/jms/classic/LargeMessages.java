package io.mikyu.jms.classic;

import io.mikyu.engine.BodyUpload;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LargeBody;
import io.mikyu.engine.Mikyu;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.message.EncodedMessage;
import io.mikyu.jms.message.LargeBodySource;
import io.mikyu.jms.message.LargeBodyStreams;
import io.mikyu.jms.message.MikyuBytesMessage;
import io.mikyu.jms.message.MikyuMessage;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Cleaner;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Messages whose body is stored as a large body beside the queues (queues and topics, in transactions or not; over
 * a broker in chunks): uploaded as they are sent, so the record holds only headers and properties; read when the
 * application reads them. A transacted send keeps its upload open until the transaction is decided
 * ({@link TransactionWork}), so the store keeps the body that no record names yet.
 */
final class LargeMessages {

    private static final byte[] EMPTY = new byte[0];

    private LargeMessages() {
    }

    /**
     * A message naming a body uploaded for it; closed once its record is written or given up (in a transaction: once
     * the transaction is decided), whichever way it went.
     */
    record Upload(BodyUpload upload, EncodedMessage message) implements AutoCloseable {
        @Override
        public void close() {
            try {
                upload.close();
            } catch (IOException | RuntimeException e) {
                // the body is then kept only while a record names it, as after a successful close
            }
        }
    }

    /**
     * Uploads the body of {@code original} if it is streamed ({@link LargeBodyStreams#INPUT_STREAM}) or larger than
     * the connection's {@code largeMessageThreshold}; null if the message is sent as a record.
     *
     * @throws MessageFormatException for a streamed body where large bodies are not supported (an older broker)
     */
    static Upload prepare(MikyuSession session, MikyuDestination d, Message original, EncodedMessage encoded)
            throws JMSException {
        InputStream stream = original instanceof MikyuBytesMessage b ? b.bodyStream() : null;
        MikyuConnection connection = session.connection;
        if (stream == null && encoded.payload().length <= connection.options.largeMessageThreshold()) {
            return null;
        }
        BodyUpload upload = null;
        try {
            try {
                upload = connection.engine.uploadBody(d.name());
            } catch (UnsupportedOperationException old) {
                // a broker older than large bodies: a body that fits a record goes as one, as it always did
                if (stream == null) {
                    return null;
                }
                throw new MessageFormatException(notSupported() + "; " + old.getMessage());
            }
            if (stream != null) {
                upload.writeFrom(stream);
            } else {
                upload.write(encoded.payload(), 0, encoded.payload().length);
            }
            LargeBody body = upload.publish();
            EncodedMessage naming = new EncodedMessage(EMPTY, body.addTo(encoded.headers()), encoded.priority(),
                    encoded.deliverAt(), encoded.expiresAt(), encoded.timestamp());
            return new Upload(upload, naming);
        } catch (IOException | RuntimeException e) {
            if (upload != null) {
                new Upload(upload, encoded).close();
            }
            if (e instanceof RuntimeException r) {
                throw JmsErrors.of(r);
            }
            JMSException failed = new JMSException("could not store the message body: " + e.getMessage());
            failed.setLinkedException(e);
            failed.initCause(e);
            throw failed;
        }
    }

    private static String notSupported() {
        return "a body streamed from " + LargeBodyStreams.INPUT_STREAM + " needs large bodies, which this broker"
                + " does not support";
    }

    /**
     * Decodes a received record: a BytesMessage naming a large body reads it when first needed, any other message
     * type reads it at once (its body is an object, text or values that exist only whole).
     */
    static MikyuMessage decode(MikyuSession session, Headers headers, byte[] payload, int attempt,
                               Destination destination) throws JMSException {
        Optional<LargeBody> named;
        try {
            named = headers == null ? Optional.empty() : LargeBody.of(headers);
        } catch (IllegalArgumentException e) {
            throw new MessageFormatException(e.getMessage());
        }
        if (named.isEmpty()) {
            return session.codec.decode(headers, payload, attempt, destination);
        }
        MikyuMessage m = session.codec.decode(headers, EMPTY, attempt, destination);
        String queue = destination instanceof MikyuDestination d ? d.name() : "";
        LargeBodySource source = source(session.connection.engine, queue, named.get(), m);
        if (m instanceof MikyuBytesMessage bytes) {
            bytes.setLargeBody(source);
            return m;
        }
        if (source.length() > Integer.MAX_VALUE - 8) {
            throw new MessageFormatException("a " + source.length() + "-byte body of a " + m.bodyType()
                    + " message does not fit in memory");
        }
        try (InputStream in = source.open()) {
            return session.codec.decode(headers, in.readNBytes((int) source.length()), attempt, destination);
        } catch (IOException e) {
            JMSException failed = new JMSException("could not read the message body: " + e.getMessage());
            failed.setLinkedException(e);
            failed.initCause(e);
            throw failed;
        }
    }

    /**
     * The body opened now, as the message is delivered: an acknowledgement (automatic ones come as soon as
     * {@code receive} returns) lets the store delete the file, and an open file stays readable until it is closed.
     * The first read takes the stream opened here; later ones open the file again while it is there. A message
     * dropped unread has its stream closed by a {@link Cleaner}.
     */
    private static LargeBodySource source(Mikyu engine, String queue, LargeBody body, Object owner) {
        InputStream opened;
        try {
            opened = engine.openBody(queue, body);
        } catch (RuntimeException e) {
            opened = null; // reported when the body is read
        }
        OpenedBody source = new OpenedBody(engine, queue, body, opened);
        if (opened != null) {
            CLEANER.register(owner, source.unread);
        }
        return source;
    }

    private static final Cleaner CLEANER = Cleaner.create();

    /** A received large body, its file held open from delivery until the first read. */
    private static final class OpenedBody implements LargeBodySource {
        private final Mikyu engine;
        private final String queue;
        private final LargeBody body;
        private final Unread unread;

        OpenedBody(Mikyu engine, String queue, LargeBody body, InputStream opened) {
            this.engine = engine;
            this.queue = queue;
            this.body = body;
            this.unread = new Unread(opened);
        }

        @Override
        public long length() {
            return body.length();
        }

        @Override
        public InputStream open() throws IOException {
            InputStream first = unread.take();
            if (first != null) {
                return first;
            }
            try {
                return engine.openBody(queue, body);
            } catch (RuntimeException e) {
                throw new IOException(e.getMessage() + " (a large body can be read again only until its message is"
                        + " acknowledged)", e);
            }
        }
    }

    /** The stream opened at delivery, until a read takes it; closes it if the message is dropped unread. */
    private static final class Unread implements Runnable {
        private final AtomicReference<InputStream> stream;

        Unread(InputStream opened) {
            this.stream = new AtomicReference<>(opened);
        }

        InputStream take() {
            return stream.getAndSet(null);
        }

        @Override
        public void run() {
            InputStream s = take();
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // nothing was read from it; closing only gives the file descriptor back
                }
            }
        }
    }
}
