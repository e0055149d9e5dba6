package io.mikyu.engine;

import java.io.IOException;
import java.io.InputStream;

/**
 * A large body being written ({@link Mikyu#uploadBody()}): its bytes go to disk as they come, never held whole in
 * memory. Write it, {@link #publish()} it, put the {@link LargeBody} in a task's headers and enqueue the task (or
 * commit the transaction that enqueues it), then close the upload:
 *
 * <pre>{@code
 * try (BodyUpload upload = mikyu.uploadBody()) {
 *     upload.writeFrom(in);
 *     LargeBody body = upload.publish();
 *     queue.enqueue(Task.of(small).withHeaders(body.addTo(Headers.EMPTY)));
 * }
 * }</pre>
 *
 * Until it is closed a published body is kept whatever the queues say; after, only while an unfinished task or a
 * log record not yet removed by retention or compaction names it. Closed unpublished, it is discarded; so is one
 * left half-written by a crash. A transaction's send closes the upload once the transaction is decided.
 */
public interface BodyUpload extends AutoCloseable {

    /** The id the body is published under. */
    String id();

    /** Bytes written so far. */
    long length();

    /** Appends bytes to the body. */
    void write(byte[] bytes, int offset, int length) throws IOException;

    /** Appends everything {@code in} holds, to its end; returns the bytes copied. */
    long writeFrom(InputStream in) throws IOException;

    /** Makes the body complete and durable (fsynced whatever the queues' durability); no more writes. */
    LargeBody publish() throws IOException;

    /** Before {@link #publish()}: discards the body. After: the task naming it is written, or never will be. */
    @Override
    void close() throws IOException;
}
