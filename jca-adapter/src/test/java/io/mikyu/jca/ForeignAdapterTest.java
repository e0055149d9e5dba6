package io.mikyu.jca;

import io.mikyu.jca.inbound.MikyuActivationSpec;
import io.mikyu.jca.outbound.MikyuManagedConnectionFactory;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import org.junit.jupiter.api.Test;

import javax.transaction.xa.XAResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A pool or an activation spec belongs to mikyu's adapter: the server associating another one is told so. */
class ForeignAdapterTest {

    @Test
    void aConnectionDefinitionRefusesAnotherAdapter() throws Exception {
        MikyuManagedConnectionFactory pool = new MikyuManagedConnectionFactory();
        assertThatThrownBy(() -> pool.setResourceAdapter(new OtherAdapter()))
                .isInstanceOf(ResourceException.class)
                .hasMessage("a mikyu connection definition belongs to the mikyu resource adapter, not other adapter");
        assertThat(pool.getResourceAdapter()).isNull();

        MikyuResourceAdapter mikyu = new MikyuResourceAdapter();
        pool.setResourceAdapter(mikyu);
        assertThat(pool.getResourceAdapter()).isSameAs(mikyu);
    }

    @Test
    void anActivationSpecRefusesAnotherAdapter() throws Exception {
        MikyuActivationSpec spec = new MikyuActivationSpec();
        assertThatThrownBy(() -> spec.setResourceAdapter(new OtherAdapter()))
                .isInstanceOf(ResourceException.class)
                .hasMessage("a mikyu activation spec belongs to the mikyu resource adapter, not other adapter");
        assertThat(spec.getResourceAdapter()).isNull();

        MikyuResourceAdapter mikyu = new MikyuResourceAdapter();
        spec.setResourceAdapter(mikyu);
        assertThat(spec.getResourceAdapter()).isSameAs(mikyu);
    }

    /** Some other product's adapter. */
    private static final class OtherAdapter implements ResourceAdapter {

        @Override
        public void start(BootstrapContext ctx) {
        }

        @Override
        public void stop() {
        }

        @Override
        public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) {
        }

        @Override
        public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        }

        @Override
        public XAResource[] getXAResources(ActivationSpec[] specs) {
            return new XAResource[0];
        }

        @Override
        public String toString() {
            return "other adapter";
        }
    }
}
