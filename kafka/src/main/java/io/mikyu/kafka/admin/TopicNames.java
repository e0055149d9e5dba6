package io.mikyu.kafka.admin;

import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.TaskQueue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * How mikyu's queue names become Kafka topic and group names, and back.
 *
 * <p>A topic is {@code <prefix>.<kind>.<encoded name>}: Kafka allows only {@code [a-zA-Z0-9._-]} in topic names while
 * mikyu names hold {@code /} (dead-letter queues) and {@code :} (a shared group's dead letters), so every byte of the
 * name's UTF-8 outside {@code [a-zA-Z0-9-]} is written {@code _xx} (two hex digits). The encoding is reversible, so
 * listing topics gives back the queue names; the prefix keeps mikyu's topics apart from others on the cluster.
 */
public final class TopicNames {

    /** Kafka's limit on a topic name's length. */
    static final int MAX_TOPIC_LENGTH = 249;

    private static final String HIGH_BAND_SUFFIX = ".p5";

    private final String prefix;

    public TopicNames(String prefix) {
        if (prefix.isEmpty() || !prefix.matches("[a-zA-Z0-9_-]+")) {
            throw new IllegalArgumentException("the topic prefix must be letters, digits, '_' or '-': '" + prefix + "'");
        }
        this.prefix = prefix;
    }

    public String prefix() {
        return prefix;
    }

    private static final java.util.regex.Pattern VALID = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    /**
     * Checks a name a user gives a new queue by the engine's rule (1 to 200 of {@code [A-Za-z0-9._-]}, starting with a
     * letter or digit), so that a queue made on Kafka can be made on any mikyu store; the store's own names (dead
     * letters: {@code jobs/dlq}, {@code events:workers/dlq}) go through {@link #topic} only.
     */
    public static String checkNew(String what, String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidQueueNameException(what + " name is empty");
        }
        if (name.length() > 200 || !VALID.matcher(name).matches()) {
            throw new InvalidQueueNameException(what + " name '" + name + "' is invalid: use 1 to 200 letters, digits,"
                    + " '.', '_' and '-', starting with a letter or digit");
        }
        return name;
    }

    /** The topic of queue {@code name} of {@code kind}. */
    public String topic(QueueKind kind, String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidQueueNameException("a queue name must not be empty");
        }
        String topic = kindPrefix(kind) + encode(name);
        if (topic.length() > MAX_TOPIC_LENGTH) {
            throw new InvalidQueueNameException("queue name '" + name + "' is too long for a Kafka topic (" + topic.length()
                    + " characters encoded, at most " + MAX_TOPIC_LENGTH + ")");
        }
        return topic;
    }

    /**
     * The queue name of {@code topic} if it is one of {@code kind}'s topics, else {@code null}: a high band's topic
     * ({@link #highBandTopic}) is not a queue's, and an encoded name holds no {@code '.'}.
     */
    public String queueName(QueueKind kind, String topic) {
        String start = kindPrefix(kind);
        if (!topic.startsWith(start) || topic.indexOf('.', start.length()) >= 0) {
            return null;
        }
        return decode(topic.substring(start.length()));
    }

    /**
     * The topic of task queue {@code name}'s high priority band: its topic with {@code .p5} (priorities 5 to 9,
     * io.mikyu.kafka.priority.PriorityBands); never another queue's, as an encoded name holds no {@code '.'}.
     */
    public String highBandTopic(String name) {
        String topic = topic(QueueKind.TASK, name) + HIGH_BAND_SUFFIX;
        if (topic.length() > MAX_TOPIC_LENGTH) {
            throw new InvalidQueueNameException("task queue name '" + name + "' is too long for its high priority"
                    + " band's topic (" + topic.length() + " characters encoded, at most " + MAX_TOPIC_LENGTH + ")");
        }
        return topic;
    }

    /**
     * The topic of a new task queue {@code name}, refused ({@link InvalidQueueNameException}) before anything is made
     * if one of the topics the queue may get would not fit Kafka's limit: the longest is its dead-letter queue's
     * high priority band ({@code <prefix>.task.<name>_2fdlq.p5}), made on the first dead letter of priority 5 or more.
     */
    public String newTaskQueueTopic(String name) {
        String topic = topic(QueueKind.TASK, name);
        int longest = topic(QueueKind.TASK, name + TaskQueue.DEAD_LETTER_SUFFIX).length() + HIGH_BAND_SUFFIX.length();
        if (longest > MAX_TOPIC_LENGTH) {
            throw new InvalidQueueNameException("task queue name '" + name + "' is too long for Kafka: its dead-letter"
                    + " queue's high priority band would need a topic of " + longest + " characters (at most "
                    + MAX_TOPIC_LENGTH + "; a name's bytes other than letters, digits and '-' take 3 characters each)");
        }
        return topic;
    }

    /** The share group that hands out the tasks of task queue {@code name}'s high priority band. */
    public String highBandShareGroup(String name) {
        return taskShareGroup(name) + HIGH_BAND_SUFFIX;
    }

    /** The Kafka consumer group (exclusive mode) behind consumer group {@code group} of log queue {@code log}. */
    public String consumerGroup(String log, String group) {
        return prefix + ".group." + encode(log) + "." + encode(group);
    }

    /** The mikyu group name of a Kafka group of log queue {@code log}, or {@code null} if it is not one. */
    public String groupName(String log, String kafkaGroup) {
        String start = prefix + ".group." + encode(log) + ".";
        return kafkaGroup.startsWith(start) ? decode(kafkaGroup.substring(start.length())) : null;
    }

    /** The share group behind shared group {@code group} of log queue {@code log}. */
    public String sharedGroup(String log, String group) {
        return prefix + ".shared." + encode(log) + "." + encode(group);
    }

    /** The mikyu name of a share group of log queue {@code log}, or {@code null} if it is not one. */
    public String sharedGroupName(String log, String kafkaGroup) {
        String start = prefix + ".shared." + encode(log) + ".";
        return kafkaGroup.startsWith(start) ? decode(kafkaGroup.substring(start.length())) : null;
    }

    /** The share group that hands out the tasks of task queue {@code name}. */
    public String taskShareGroup(String name) {
        return prefix + ".tasks." + encode(name);
    }

    private String kindPrefix(QueueKind kind) {
        return prefix + "." + kind.name().toLowerCase(java.util.Locale.ROOT) + ".";
    }

    static String encode(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-') {
                out.append((char) c);
            } else {
                out.append('_').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
            }
        }
        return out.toString();
    }

    static String decode(String encoded) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '_') {
                if (i + 2 >= encoded.length()) {
                    throw new IllegalArgumentException("not an encoded queue name: '" + encoded + "'");
                }
                bytes.write(Integer.parseInt(encoded.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
