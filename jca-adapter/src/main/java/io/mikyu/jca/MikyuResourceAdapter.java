package io.mikyu.jca;

import io.mikyu.jca.inbound.Activations;
import io.mikyu.jca.inbound.RecoveryResources;
import io.mikyu.jca.settings.ConnectionSettings;
import io.mikyu.jca.settings.OpenConnections;
import io.mikyu.jca.settings.OwningAdapter;
import io.mikyu.jca.settings.ProviderProperties;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.transaction.xa.XAResource;

/**
 * mikyu's resource adapter: its properties ({@link ProviderProperties}: {@code url}, {@code user},
 * {@code password} and every option of a mikyu URL) are the defaults of every connection definition (pool) and
 * every message-driven bean activation, which may override them. It delivers to message-driven beans
 * ({@code endpointActivation}), hands the server's recovery manager XAResources of the stores those reach
 * ({@code getXAResources}), and on {@code stop} deactivates every endpoint and closes every connection it opened.
 */
public class MikyuResourceAdapter extends ProviderProperties implements ResourceAdapter, OwningAdapter {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(MikyuResourceAdapter.class);

    private transient BootstrapContext bootstrap;
    private transient Activations activations;
    private transient RecoveryResources recovery;
    private final transient OpenConnections connections = new OpenConnections();

    @Override
    public void start(BootstrapContext context) throws ResourceAdapterInternalException {
        try {
            ConnectionSettings s = settings();
            LOG.info("mikyu resource adapter started; connections go to {} unless a pool or activation says "
                    + "otherwise", s.describe());
        } catch (InvalidPropertyException e) {
            throw new ResourceAdapterInternalException(e.getMessage(), e);
        }
        this.bootstrap = context;
        this.activations = new Activations();
        this.recovery = new RecoveryResources();
    }

    @Override
    public void stop() {
        if (activations != null) {
            activations.stopAll();
        }
        if (recovery != null) {
            recovery.close();
        }
        connections.closeAll();
        LOG.info("mikyu resource adapter stopped");
    }

    @Override
    public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) throws ResourceException {
        associate(spec);
        requireStarted().activate(bootstrap, factory, spec);
    }

    /** The server associates a spec with its adapter first; one it did not is this adapter's all the same. */
    private void associate(ActivationSpec spec) throws ResourceException {
        if (spec != null && spec.getResourceAdapter() == null) {
            spec.setResourceAdapter(this);
        }
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        if (activations != null) {
            activations.deactivate(factory, spec);
        }
    }

    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) throws ResourceException {
        if (recovery == null) {
            return new XAResource[0];
        }
        if (specs != null) {
            for (ActivationSpec spec : specs) {
                associate(spec);
            }
        }
        return recovery.resources(specs);
    }

    /**
     * The adapter's own URL (with its options), user and password.
     *
     * @throws InvalidPropertyException naming what is wrong
     */
    public ConnectionSettings settings() throws InvalidPropertyException {
        try {
            return ConnectionSettings.resolve(this);
        } catch (IllegalArgumentException e) {
            throw new InvalidPropertyException("mikyu resource adapter: " + e.getMessage(), e);
        }
    }

    /** The physical connections of the adapter's pools, closed on {@code stop}. */
    @Override
    public OpenConnections connections() {
        return connections;
    }

    private Activations requireStarted() throws ResourceException {
        if (activations == null) {
            throw new ResourceException("the mikyu resource adapter is not started");
        }
        return activations;
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }
}
