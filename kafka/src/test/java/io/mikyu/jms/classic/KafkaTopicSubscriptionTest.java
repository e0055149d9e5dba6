package io.mikyu.jms.classic;

/** The JMS provider's {@link TopicSubscriptionTest} on {@code kafka://}. */
class KafkaTopicSubscriptionTest extends TopicSubscriptionTest implements OnKafka {
}
