package io.mikyu.jca.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection manager of a connection factory made outside a server ({@code createConnectionFactory()}): no
 * pool and no transaction enlistment; a physical connection per handle, destroyed when the handle closes.
 */
final class UnpooledConnectionManager implements ConnectionManager {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(UnpooledConnectionManager.class);

    @Override
    public Object allocateConnection(ManagedConnectionFactory mcf, ConnectionRequestInfo info)
            throws ResourceException {
        ManagedConnection mc = mcf.createManagedConnection(null, info);
        mc.addConnectionEventListener(new ConnectionEventListener() {
            @Override
            public void connectionClosed(ConnectionEvent event) {
                destroy(mc);
            }

            @Override
            public void connectionErrorOccurred(ConnectionEvent event) {
                destroy(mc);
            }

            @Override
            public void localTransactionStarted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionCommitted(ConnectionEvent event) {
            }

            @Override
            public void localTransactionRolledback(ConnectionEvent event) {
            }
        });
        return mc.getConnection(null, info);
    }

    private static void destroy(ManagedConnection mc) {
        try {
            mc.destroy();
        } catch (ResourceException e) {
            LOG.debug("destroying an unpooled connection failed", e);
        }
    }
}
