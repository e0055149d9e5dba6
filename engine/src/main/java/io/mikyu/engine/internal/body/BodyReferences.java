package io.mikyu.engine.internal.body;

import io.mikyu.engine.Headers;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bodies one queue's unfinished items name, by item id: what the sweep asks a queue for. Only items that name a
 * body are kept, so a queue of small messages pays one header lookup per item and nothing more. Written under the
 * queue's lock, read by the sweep without it.
 */
public final class BodyReferences {

    private final ConcurrentHashMap<Long, String> byItem = new ConcurrentHashMap<>();

    /** An item entered the queue (enqueued, replayed, moved in): remembers the body it names, if any. */
    public void entered(long item, Headers headers) {
        String id = headers.getString(io.mikyu.engine.LargeBody.ID_HEADER);
        if (id != null) {
            byItem.put(item, id);
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
