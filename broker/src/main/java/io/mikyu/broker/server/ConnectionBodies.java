package io.mikyu.broker.server;

import io.mikyu.engine.BodyUpload;
import io.mikyu.engine.LargeBody;
import io.mikyu.engine.Mikyu;
import io.mikyu.protocol.BodyDescriptor;
import io.mikyu.protocol.MalformedFrameException;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection's large bodies (feature LARGE_BODIES): the uploads it has open and the bodies it is reading. When
 * the connection ends, an upload not yet published is discarded at once and a published one is left to the store's
 * sweep, which deletes it unless a task names it: a client that dies in the middle of a send leaves nothing behind.
 */
final class ConnectionBodies {

    /** Uploads one connection may have open at once: each holds a file open. */
    static final int MAX_UPLOADS = 64;
    /** Bodies kept open between one read and the next on a connection; the least recently read is closed first. */
    static final int MAX_READERS = 16;

    private final Mikyu mikyu;
    private final int chunkBytes;
    /**
     * Upload numbers are unique across the broker's connections, not only within one: a chunk a reconnected client
     * sends for an upload of its lost connection is refused as unknown, never appended to another body.
     */
    private static final AtomicInteger NEXT_UPLOAD = new AtomicInteger();
    private final ConcurrentHashMap<Integer, Upload> uploads = new ConcurrentHashMap<>();
    /** Open readers by body id and the offset they are at, least recently used first. */
    private final LinkedHashMap<String, InputStream> readers = new LinkedHashMap<>();
    private boolean ended;

    ConnectionBodies(Mikyu mikyu, int maxFrameBytes) {
        this.mikyu = mikyu;
        this.chunkBytes = BodyDescriptor.chunkBytes(maxFrameBytes);
    }

    /** Starts an upload; the new upload's number on this connection. */
    int open(String queue) {
        if (uploads.size() >= MAX_UPLOADS) {
            throw new IllegalStateException("a connection may have at most " + MAX_UPLOADS + " large bodies being"
                    + " uploaded at once");
        }
        BodyUpload body = mikyu.uploadBody(queue);
        int number = NEXT_UPLOAD.incrementAndGet();
        Upload upload = new Upload(body);
        uploads.put(number, upload);
        synchronized (this) {
            if (ended) {
                // the connection ended while the upload was being opened
                uploads.remove(number);
                upload.close();
                throw new io.mikyu.engine.StoreClosedException("the connection ended");
            }
        }
        return number;
    }

    String id(int upload) {
        return upload(upload).body.id();
    }

    /** On the event loop, in the order the chunks came: queues a chunk for {@link Upload#drain()}. */
    Upload chunk(int upload, long offset, byte[] bytes) {
        if (bytes.length == 0 || bytes.length > chunkBytes) {
            throw new MalformedFrameException("a body chunk of " + bytes.length + " bytes; 1 to " + chunkBytes
                    + " allowed");
        }
        Upload u = upload(upload);
        u.queue(offset, bytes);
        return u;
    }

    /** Makes the body durable; checks it holds {@code length} bytes. */
    LargeBody publish(int upload, long length) throws IOException {
        return upload(upload).publish(length);
    }

    /** The client is done with the upload: discarded if unpublished, else kept while a task names it. */
    void close(int upload) {
        Upload u = uploads.remove(upload);
        if (u != null) {
            u.close();
        }
    }

    /** Up to {@code max} bytes of a body from {@code offset}; none at its end. */
    byte[] read(String queue, String id, long offset, int max) throws IOException {
        if (max < 1) {
            throw new IllegalArgumentException("a body read of at most " + max + " bytes");
        }
        if (offset < 0) {
            throw new IllegalArgumentException("a body read from offset " + offset);
        }
        InputStream in = takeReader(id, offset);
        if (in == null) {
            in = mikyu.openBody(queue, new LargeBody(id, 0));
            try {
                in.skipNBytes(offset);
            } catch (java.io.EOFException e) {
                in.close();
                throw new IllegalArgumentException("body " + id + " is shorter than offset " + offset);
            } catch (IOException | RuntimeException e) {
                in.close();
                throw e;
            }
        }
        int want = Math.min(max, chunkBytes);
        byte[] bytes;
        try {
            bytes = in.readNBytes(want);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        if (bytes.length < want) {
            in.close(); // the end, its trailer checked: the file (deleted once acknowledged) is let go at once
        } else {
            keepReader(id, offset + bytes.length, in);
        }
        return bytes;
    }

    /** The connection ended: uploads are closed, readers too. */
    void closeAll() {
        List<InputStream> open;
        synchronized (this) {
            ended = true;
            open = new ArrayList<>(readers.values());
            readers.clear();
        }
        for (Iterator<Upload> it = uploads.values().iterator(); it.hasNext(); ) {
            Upload u = it.next();
            it.remove();
            u.close();
        }
        open.forEach(ConnectionBodies::closeQuietly);
    }

    /** Uploads open now (for tests and metrics). */
    int openUploads() {
        return uploads.size();
    }

    private Upload upload(int number) {
        Upload u = uploads.get(number);
        if (u == null) {
            throw new IllegalStateException("no large body upload " + number + " is open on this connection");
        }
        return u;
    }

    private synchronized InputStream takeReader(String id, long offset) {
        return readers.remove(id + "@" + offset);
    }

    private void keepReader(String id, long offset, InputStream in) {
        InputStream evicted = null;
        synchronized (this) {
            if (ended) {
                evicted = in;
            } else {
                InputStream previous = readers.put(id + "@" + offset, in);
                if (previous != null) {
                    evicted = previous;
                } else if (readers.size() > MAX_READERS) {
                    Iterator<Map.Entry<String, InputStream>> oldest = readers.entrySet().iterator();
                    evicted = oldest.next().getValue();
                    oldest.remove();
                }
            }
        }
        if (evicted != null) {
            closeQuietly(evicted);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // only a file descriptor to give back
        }
    }

    /**
     * One upload: chunks are queued on the event loop in the order they arrive and written by whichever worker
     * comes first, in that order, since the requests of a connection run concurrently.
     */
    static final class Upload {
        private final BodyUpload body;
        private final java.util.concurrent.ConcurrentLinkedQueue<byte[]> queued =
                new java.util.concurrent.ConcurrentLinkedQueue<>();
        private final AtomicInteger queuedCount = new AtomicInteger();
        /** The offset the next chunk must have; on the event loop only. */
        private long nextOffset;
        private IOException failed;
        private boolean closed;

        Upload(BodyUpload body) {
            this.body = body;
        }

        private void queue(long offset, byte[] bytes) {
            if (offset != nextOffset) {
                throw new MalformedFrameException("a chunk of large body " + body.id() + " at offset " + offset
                        + "; the next one is at " + nextOffset);
            }
            if (queuedCount.incrementAndGet() > BodyDescriptor.WINDOW) {
                throw new MalformedFrameException("more than " + BodyDescriptor.WINDOW + " chunks of large body "
                        + body.id() + " unanswered");
            }
            nextOffset += bytes.length;
            queued.add(bytes);
        }

        /** Writes every chunk queued so far, in order; on a worker. */
        synchronized void drain() throws IOException {
            if (failed != null) {
                throw failed;
            }
            if (closed) {
                throw new IllegalStateException("large body upload " + body.id() + " is closed");
            }
            byte[] c;
            while ((c = queued.poll()) != null) {
                try {
                    body.write(c, 0, c.length);
                } catch (IOException e) {
                    failed = e;
                    throw e;
                } finally {
                    queuedCount.decrementAndGet();
                }
            }
        }

        synchronized LargeBody publish(long length) throws IOException {
            drain();
            if (body.length() != length) {
                throw new IllegalArgumentException("large body " + body.id() + " holds " + body.length()
                        + " bytes; the client sent " + length);
            }
            return body.publish();
        }

        synchronized void close() {
            closed = true;
            queued.clear();
            closeQuietly(body);
        }
    }
}
