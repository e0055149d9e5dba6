package io.mikyu.jms.message;

import io.mikyu.engine.GroupMember;
import io.mikyu.engine.Headers;

import java.util.Map;

/**
 * JMSXGroupID and JMSXGroupSeq as the engine's group headers ({@link GroupMember#GROUP}, {@link GroupMember#GROUP_SEQ},
 * plain text), beside the properties themselves: what a task queue's dispatch reads to keep a group on one consumer.
 * Provider-internal headers ({@code mikyu.}), so a received message shows only the properties.
 */
final class MessageGroupHeaders {

    private MessageGroupHeaders() {
    }

    static void add(Map<String, Object> properties, Headers.Builder h) {
        Object group = properties.get(PropertyNames.JMSX_GROUP_ID);
        if (group == null) {
            return;
        }
        h.add(GroupMember.GROUP, String.valueOf(group));
        Object seq = properties.get(PropertyNames.JMSX_GROUP_SEQ);
        if (seq != null) {
            h.add(GroupMember.GROUP_SEQ, String.valueOf(seq));
        }
    }
}
