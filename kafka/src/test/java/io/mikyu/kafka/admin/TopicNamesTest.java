package io.mikyu.kafka.admin;

import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.TaskQueue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicNamesTest {

    private final TopicNames names = new TopicNames("mikyu");

    @Test
    void namesWithSlashesColonsAndDotsBecomeLegalTopicNamesAndComeBack() {
        for (String name : new String[] {"jobs", "jobs/dlq", "orders:billing/dlq", "a.b_c", "ünï-code", "UPPER-9"}) {
            String topic = names.topic(QueueKind.TASK, name);
            assertThat(topic).matches("[a-zA-Z0-9._-]+").startsWith("mikyu.task.");
            assertThat(names.queueName(QueueKind.TASK, topic)).isEqualTo(name);
            assertThat(names.queueName(QueueKind.LOG, topic)).isNull();
        }
        assertThat(names.topic(QueueKind.LOG, "jobs/dlq")).isEqualTo("mikyu.log.jobs_2fdlq");
    }

    @Test
    void aDotOrUnderscoreCannotMakeTwoNamesShareATopic() {
        assertThat(names.topic(QueueKind.LOG, "a.b")).isNotEqualTo(names.topic(QueueKind.LOG, "a_b"));
        assertThat(names.topic(QueueKind.LOG, "a_2fb")).isNotEqualTo(names.topic(QueueKind.LOG, "a/b"));
    }

    @Test
    void aHighPriorityBandsTopicIsNoQueuesAndNoOtherQueueCanHaveIt() {
        String band = names.highBandTopic("jobs");
        assertThat(band).isEqualTo("mikyu.task.jobs.p5");
        assertThat(names.queueName(QueueKind.TASK, band)).isNull();
        // A queue named "jobs.p5" has its own topic: a name's '.' is encoded.
        assertThat(names.topic(QueueKind.TASK, "jobs.p5")).isNotEqualTo(band);
        assertThat(names.highBandShareGroup("jobs")).isEqualTo(names.taskShareGroup("jobs") + ".p5")
                .isNotEqualTo(names.taskShareGroup("jobs.p5"));
    }

    @Test
    void aNewTaskQueueIsRefusedIfItsDeadLetterQueuesHighBandWouldExceedKafkasTopicLimit() {
        // Each '.' is encoded as 3 characters: "mikyu.task." (11) + 1 + 3 * dots, and "_2fdlq" (6) + ".p5" (3).
        String fits = "a" + ".".repeat(76);
        assertThat(names.newTaskQueueTopic(fits)).isEqualTo(names.topic(QueueKind.TASK, fits));
        assertThat(names.highBandTopic(fits + TaskQueue.DEAD_LETTER_SUFFIX)).hasSize(TopicNames.MAX_TOPIC_LENGTH);

        String tooLong = "a" + ".".repeat(77);
        // Its own topics and its dead-letter queue's topic fit; the dead-letter queue's band would not.
        assertThat(names.highBandTopic(tooLong)).hasSizeLessThanOrEqualTo(TopicNames.MAX_TOPIC_LENGTH);
        assertThat(names.topic(QueueKind.TASK, tooLong + TaskQueue.DEAD_LETTER_SUFFIX))
                .hasSizeLessThanOrEqualTo(TopicNames.MAX_TOPIC_LENGTH);
        assertThatThrownBy(() -> names.newTaskQueueTopic(tooLong)).isInstanceOf(InvalidQueueNameException.class)
                .hasMessageContaining("'" + tooLong + "' is too long")
                .hasMessageContaining("dead-letter queue's high priority band");
    }

    @Test
    void noQueueOfAnyKindAndNoOtherStoreCanHaveABandsTopicOrGroup() {
        String band = names.highBandTopic("jobs");
        for (QueueKind kind : QueueKind.values()) {
            assertThat(names.queueName(kind, band)).as(kind.name()).isNull();
        }
        // A prefix holds no '.', so another store's names cannot end in a band's suffix either.
        assertThat(new TopicNames("mikyu_task_jobs").topic(QueueKind.TASK, "p5")).isNotEqualTo(band);
        assertThat(names.highBandShareGroup("jobs")).isNotEqualTo(names.sharedGroup("jobs", "p5"))
                .isNotEqualTo(names.consumerGroup("jobs", "p5"));
    }

    @Test
    void groupsOfALogAreFoundByTheirLogsName() {
        String group = names.consumerGroup("orders", "billing.eu");
        assertThat(names.groupName("orders", group)).isEqualTo("billing.eu");
        assertThat(names.groupName("order", group)).isNull();
    }

    @Test
    void tooLongOrEmptyNamesAreRefusedClearly() {
        assertThatThrownBy(() -> names.topic(QueueKind.LOG, "/".repeat(100)))
                .isInstanceOf(InvalidQueueNameException.class).hasMessageContaining("too long for a Kafka topic");
        assertThatThrownBy(() -> names.topic(QueueKind.LOG, "")).isInstanceOf(InvalidQueueNameException.class);
        assertThatThrownBy(() -> new TopicNames("a.b")).isInstanceOf(IllegalArgumentException.class);
    }
}
