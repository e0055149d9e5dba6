package io.mikyu.jca.inbound;

import io.mikyu.jca.settings.ConnectionSettings;
import io.mikyu.jms.MikyuXAConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.resource.spi.ActivationSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.transaction.xa.XAResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The XAResources the server's recovery manager asks for ({@code getXAResources}): one XA session per store or
 * broker (and user) the activation specs reach, kept open until the adapter stops, so recovery can call
 * {@code recover}, {@code commit} and {@code rollback} on them whenever it runs. {@code recover()} of any of them
 * lists every prepared branch of its store that the user may see, whichever JVM prepared it.
 */
public final class RecoveryResources {

    private static final Logger LOG = LoggerFactory.getLogger(RecoveryResources.class);

    private final Map<ConnectionSettings, XASession> open = new LinkedHashMap<>();
    private final List<XAConnection> connections = new ArrayList<>();
    private boolean closed;

    /** Never null: a spec whose store cannot be reached now is left out (and logged); recovery asks again later. */
    public synchronized XAResource[] resources(ActivationSpec[] specs) {
        List<XAResource> out = new ArrayList<>();
        if (specs == null || closed) {
            return new XAResource[0];
        }
        for (ActivationSpec spec : specs) {
            if (!(spec instanceof MikyuActivationSpec mikyu)) {
                continue;
            }
            try {
                ConnectionSettings settings = ActivationTarget.resolve(mikyu).settings();
                XASession session = open.get(settings);
                if (session == null) {
                    session = openSession(settings);
                    open.put(settings, session);
                }
                XAResource resource = session.getXAResource();
                if (!out.contains(resource)) {
                    out.add(resource);
                }
            } catch (Exception e) {
                LOG.warn("no XAResource for recovery of {}: {}", mikyu, e.toString());
                LOG.debug("recovery resource failure", e);
            }
        }
        return out.toArray(new XAResource[0]);
    }

    private XASession openSession(ConnectionSettings settings) throws JMSException {
        XAConnection c = new MikyuXAConnectionFactory(settings.url())
                .createXAConnection(settings.user(), settings.password());
        try {
            XASession s = c.createXASession();
            connections.add(c);
            return s;
        } catch (JMSException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Closes every connection (the adapter stops). */
    public synchronized void close() {
        closed = true;
        for (XAConnection c : connections) {
            try {
                c.close();
            } catch (JMSException | RuntimeException e) {
                LOG.debug("closing a recovery connection failed", e);
            }
        }
        connections.clear();
        open.clear();
    }
}
