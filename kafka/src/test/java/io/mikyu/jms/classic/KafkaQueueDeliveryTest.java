package io.mikyu.jms.classic;

/** The JMS provider's {@link QueueDeliveryTest} on {@code kafka://}. */
class KafkaQueueDeliveryTest extends QueueDeliveryTest implements OnKafka {
}
