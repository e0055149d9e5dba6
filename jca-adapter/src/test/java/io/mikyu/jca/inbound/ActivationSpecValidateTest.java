package io.mikyu.jca.inbound;

import jakarta.resource.spi.InvalidPropertyException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** validate() says what is wrong, all of it at once. */
class ActivationSpecValidateTest {

    @Test
    void aDestinationIsNeeded() {
        assertThatThrownBy(new MikyuActivationSpec()::validate).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("no destination: set destination").hasMessageContaining("destinationLookup");
    }

    @Test
    void aDurableSubscriptionNeedsAName() {
        MikyuActivationSpec spec = Inbound.topic("prices");
        spec.setSubscriptionDurability("Durable");
        assertThatThrownBy(spec::validate).hasMessageContaining("a durable subscription needs a subscriptionName");
        spec.setSubscriptionName("p");
        assertThatCode(spec::validate).doesNotThrowAnyException();
    }

    @Test
    void aSharedSubscriptionNeedsAName() {
        MikyuActivationSpec spec = Inbound.topic("prices");
        spec.setShareSubscriptions(true);
        assertThatThrownBy(spec::validate).hasMessageContaining("a shared subscription");
    }

    @Test
    void everyProblemIsNamed() {
        MikyuActivationSpec spec = new MikyuActivationSpec();
        spec.setDestination("q");
        spec.setDestinationLookup("java:/q");
        spec.setDestinationType("jakarta.jms.Pipe");
        spec.setAcknowledgeMode("Client-acknowledge");
        spec.setSubscriptionDurability("Sometimes");
        spec.setMessageSelector("price >");
        spec.setMaxSession(0);
        spec.setMaxAttempts(0);
        spec.setSetupAttempts(0);
        spec.setUrl("vm://data?durability=never");
        assertThatThrownBy(spec::validate).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("destinationType 'jakarta.jms.Pipe'")
                .hasMessageContaining("acknowledgeMode 'Client-acknowledge'")
                .hasMessageContaining("subscriptionDurability 'Sometimes'")
                .hasMessageContaining("messageSelector 'price >' is not valid")
                .hasMessageContaining("maxSession must be at least 1")
                .hasMessageContaining("maxAttempts must be at least 1")
                .hasMessageContaining("setupAttempts must be -1")
                .hasMessageContaining("durability must be sync or async");
    }

    @Test
    void aQueueCannotBeDurableAndTypesMustAgree() {
        MikyuActivationSpec spec = Inbound.queue("q");
        spec.setSubscriptionDurability("Durable");
        spec.setSubscriptionName("s");
        assertThatThrownBy(spec::validate).hasMessageContaining("Durable is for topics");

        MikyuActivationSpec types = Inbound.queue("q");
        types.setMessageDestinationType("jakarta.jms.Topic");
        assertThatThrownBy(types::validate).hasMessageContaining("disagree");
    }

    @Test
    void theStandardValuesAreAccepted() {
        MikyuActivationSpec spec = new MikyuActivationSpec();
        spec.setDestinationLookup("java:/jms/queue/q");
        spec.setMessageDestinationType("javax.jms.Queue");
        spec.setAcknowledgeMode("Dups-ok-acknowledge");
        spec.setMessageSelector("JMSPriority > 4");
        assertThatCode(spec::validate).doesNotThrowAnyException();
    }
}
