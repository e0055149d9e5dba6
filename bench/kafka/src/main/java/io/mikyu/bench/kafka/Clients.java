package io.mikyu.bench.kafka;

/**
 * The producers and consumers of one run on one side: each made and used by one thread of its own (a JMS session
 * and a Kafka client serve one thread). Closing closes what the side made for the run (topics stay on the cluster).
 */
interface Clients extends AutoCloseable {

    Sender sender(int producer) throws Exception;

    Receiver receiver(int consumer) throws Exception;

    @Override
    void close() throws Exception;

    /** Sends one message and returns once it is stored as the side's durability says. */
    interface Sender extends AutoCloseable {
        void send(int producer, long seq, long sentNanos) throws Exception;
    }

    /** Waits a little for messages and hands each to the sink, acknowledging them as the side does. */
    interface Receiver extends AutoCloseable {
        void receive(Sink sink) throws Exception;
    }

    /** What the measurement learns of a received message. */
    interface Sink {
        void received(long run, int producer, long seq, long sentNanos, int bodyLength, boolean redelivered);
    }
}
