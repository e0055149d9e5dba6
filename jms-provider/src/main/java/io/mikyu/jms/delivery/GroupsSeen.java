package io.mikyu.jms.delivery;

import io.mikyu.engine.GroupMember;
import io.mikyu.engine.Headers;
import io.mikyu.jms.message.MessageCodec;

import java.util.HashSet;
import java.util.Set;

/**
 * The message groups one queue consumer has received from, to mark the first message of each with
 * {@code JMSXGroupFirstForConsumer = true} (as ActiveMQ Classic and Artemis do): a consumer owns a group from its
 * first message until it closes or the group's {@code JMSXGroupSeq = -1} message, so its first message of a group is
 * the one it got the group with. Only the consumer's fetching thread uses it.
 */
final class GroupsSeen {

    private final Set<String> seen = new HashSet<>();

    /** {@code headers}, marked if they open a group for this consumer. */
    Headers received(Headers headers) {
        String group = headers.isEmpty() ? null : headers.getString(GroupMember.GROUP);
        if (group == null) {
            return headers;
        }
        boolean first = seen.add(group);
        if ("-1".equals(headers.getString(GroupMember.GROUP_SEQ))) {
            seen.remove(group); // the group ends: a later message of the same id opens it anew
        }
        if (!first) {
            return headers;
        }
        Headers.Builder b = Headers.builder();
        for (Headers.Header h : headers.asList()) {
            b.add(h.name(), h.value());
        }
        return b.add(MessageCodec.GROUP_FIRST_FOR_CONSUMER, "true").build();
    }
}
