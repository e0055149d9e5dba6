package io.mikyu.jms.classic;

/** The JMS provider's {@link RedeliveryLimitTest} on {@code kafka://}. */
class KafkaRedeliveryLimitTest extends RedeliveryLimitTest implements OnKafka {
}
