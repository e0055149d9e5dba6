package io.mikyu.broker.faults;

/**
 * A consumer JVM of the message-group kill scenario: a {@code MessageListener} with AUTO_ACKNOWLEDGE on a queue of a
 * daemon, reporting each message it is handed as a complete line
 * {@code D <group> <seq> <redelivered> <JMSXDeliveryCount> <millis> $}, {@code millis} the wall clock when it was
 * handed (a line cut by a kill is not one). Arguments: the broker URL with options, the queue.
 */
public final class GroupConsumerMain {

    private GroupConsumerMain() {
    }

    public static void main(String[] args) throws Exception {
        ConsumerJvm.haltWhenTheParentIsGone();
        ConsumerJvm.listenUntilKilled(args[0], args[1], m -> ConsumerJvm.say("D " + m.getStringProperty("JMSXGroupID")
                + " " + m.getIntProperty("JMSXGroupSeq") + " " + m.getJMSRedelivered() + " "
                + m.getIntProperty("JMSXDeliveryCount") + " " + System.currentTimeMillis()));
    }
}
