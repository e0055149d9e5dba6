package io.mikyu.jms.classic;

/** The JMS provider's {@link InvalidSelectorTest} on {@code kafka://}. */
class KafkaInvalidSelectorTest extends InvalidSelectorTest implements OnKafka {
}
