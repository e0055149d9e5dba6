package io.mikyu.jms;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

import javax.naming.Reference;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DestinationsTest {

    @Test
    void queuesAndTopicsRoundTripThroughTheirStoredText() throws Exception {
        MikyuQueue q = new MikyuQueue("orders");
        MikyuTopic t = new MikyuTopic("prices");
        assertThat(Destinations.CODEC.toText(q)).isEqualTo("queue://orders");
        assertThat(Destinations.CODEC.toText(t)).isEqualTo("topic://prices");
        assertThat(Destinations.CODEC.fromText("queue://orders")).isEqualTo(q).isInstanceOf(Queue.class);
        assertThat(Destinations.CODEC.fromText("topic://prices")).isEqualTo(t).isInstanceOf(Topic.class);
    }

    @Test
    void aQueueAndATopicOfTheSameNameAreDifferentDestinations() {
        assertThat(new MikyuQueue("events")).isNotEqualTo(new MikyuTopic("events"));
        assertThat(new MikyuQueue("events")).isEqualTo(new MikyuQueue("events"))
                .hasSameHashCodeAs(new MikyuQueue("events"));
    }

    @Test
    void unknownTextIsAnInvalidDestination() {
        for (String bad : new String[] {"orders", "queue://", "topic://", "temp://x", null}) {
            assertThatThrownBy(() -> Destinations.CODEC.fromText(bad))
                    .isInstanceOf(InvalidDestinationException.class);
        }
    }

    @Test
    void destinationsSurviveSerializationAndJndiReferences() throws Exception {
        for (MikyuDestination d : new MikyuDestination[] {new MikyuQueue("q1"), new MikyuTopic("t1")}) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(d);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                assertThat(in.readObject()).isEqualTo(d);
            }
            Reference ref = d.getReference();
            assertThat(ref.getFactoryClassName()).isEqualTo(DestinationObjectFactory.class.getName());
            assertThat(new DestinationObjectFactory().getObjectInstance(ref, null, null, null)).isEqualTo(d);
        }
    }
}
