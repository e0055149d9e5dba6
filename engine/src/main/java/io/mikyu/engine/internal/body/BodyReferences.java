package io.mikyu.engine.internal.body;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bodies one queue's unfinished items name, by item id: what the sweep asks a queue for. Only items that name a
 * body are kept, so a queue of small messages pays one header lookup per item and nothing more. Written under the
 * queue's lock, read by the sweep without it.
 */
public final class BodyReferences {

    private final ConcurrentHashMap<Long, String> byItem = new ConcurrentHashMap<>();

    /**
     * An item entered the queue (enqueued, replayed, moved in): remembers {@code bodyId}, the value of its
     * {@link io.mikyu.engine.LargeBody#ID_HEADER} header, if it names a body (null if not).
     */
    public void entered(long item, String bodyId) {
        if (bodyId != null) {
            byItem.put(item, bodyId);
        }
    }

    /** The item is finished (acked, expired, dead-lettered, purged): its body is no longer named by it. */
    public void left(long item) {
        if (!byItem.isEmpty()) {
            byItem.remove(item);
        }
    }

    /** Adds the ids of the bodies named by unfinished items to {@code into}. */
    public void collectInto(Collection<String> into) {
        into.addAll(byItem.values());
    }
}
