package io.mikyu.jms.classic;

/** The JMS provider's {@link AvailabilityAwareTest} (the resource adapter's view of a consumer) on {@code kafka://}. */
class KafkaAvailabilityAwareTest extends AvailabilityAwareTest implements OnKafka {
}
