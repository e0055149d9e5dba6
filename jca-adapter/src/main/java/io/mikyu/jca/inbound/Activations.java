package io.mikyu.jca.inbound;

import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The adapter's active endpoints, by endpoint factory and activation spec (the pair the server deactivates). */
public final class Activations {

    private static final Logger LOG = LoggerFactory.getLogger(Activations.class);

    private record Key(MessageEndpointFactory factory, ActivationSpec spec) {
    }

    private final Map<Key, EndpointActivation> active = new ConcurrentHashMap<>();

    public void activate(BootstrapContext bootstrap, MessageEndpointFactory factory, ActivationSpec spec)
            throws ResourceException {
        if (!(spec instanceof MikyuActivationSpec mikyu)) {
            throw new NotSupportedException("not a mikyu activation spec: " + spec);
        }
        mikyu.validate();
        Key key = new Key(factory, spec);
        EndpointActivation activation = new EndpointActivation(factory, mikyu, bootstrap);
        if (active.putIfAbsent(key, activation) != null) {
            throw new ResourceException("this endpoint is already active with this activation spec: " + spec);
        }
        try {
            activation.start();
        } catch (ResourceException | RuntimeException e) {
            active.remove(key);
            throw e;
        }
    }

    public void deactivate(MessageEndpointFactory factory, ActivationSpec spec) {
        EndpointActivation activation = active.remove(new Key(factory, spec));
        if (activation == null) {
            LOG.warn("deactivation of an endpoint that is not active: {}", spec);
            return;
        }
        activation.stop();
    }

    /** Deactivates everything (the adapter stops). */
    public void stopAll() {
        List<EndpointActivation> all = new ArrayList<>(active.values());
        active.clear();
        for (EndpointActivation a : all) {
            a.stop();
        }
    }

    public int size() {
        return active.size();
    }
}
