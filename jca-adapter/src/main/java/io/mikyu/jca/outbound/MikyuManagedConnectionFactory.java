package io.mikyu.jca.outbound;

import io.mikyu.jca.settings.ConnectionSettings;
import io.mikyu.jca.settings.OwningAdapter;
import io.mikyu.jca.settings.ProviderProperties;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.ValidatingManagedConnectionFactory;

import javax.security.auth.Subject;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.Set;

/**
 * A connection definition (a pool): makes the {@link jakarta.jms.ConnectionFactory} applications look up, and the
 * physical connections behind its handles. Its properties are those of the resource adapter; each one set here
 * overrides the adapter's for this pool only (say, another {@code url} or {@code clientID}).
 *
 * <p>Supports XATransaction (the container enlists the physical session's XAResource), LocalTransaction (a
 * branch of the same session under an internal Xid, committed in one phase) and NoTransaction.
 */
public class MikyuManagedConnectionFactory extends ProviderProperties implements ManagedConnectionFactory,
        ResourceAdapterAssociation, TransactionSupport, ValidatingManagedConnectionFactory {

    private static final long serialVersionUID = 1L;

    private transient OwningAdapter adapter;
    private transient PrintWriter logWriter;

    // ------------------------------------------------------------------------------------------------ factories

    @Override
    public Object createConnectionFactory(ConnectionManager manager) throws ResourceException {
        settings(); // a wrong configuration fails the deployment, not the first use
        return new MikyuPooledConnectionFactory(this, manager);
    }

    /** Outside a server: every connection is physical, made and destroyed with its handle. */
    @Override
    public Object createConnectionFactory() throws ResourceException {
        return createConnectionFactory(new UnpooledConnectionManager());
    }

    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info)
            throws ResourceException {
        ConnectionSettings settings = settings();
        Credentials who = Credentials.of(this, subject, info, settings.user(), settings.password());
        MikyuManagedConnection mc = MikyuManagedConnection.open(this,
                settings.withCredentials(who.user(), who.password()), who);
        if (adapter != null) {
            adapter.connections().add(mc);
        }
        return mc;
    }

    /** A free connection of this pool to the same place with the same credentials, that is not broken. */
    @Override
    @SuppressWarnings("rawtypes")
    public ManagedConnection matchManagedConnections(Set connections, Subject subject, ConnectionRequestInfo info)
            throws ResourceException {
        ConnectionSettings settings = settings();
        Credentials who = Credentials.of(this, subject, info, settings.user(), settings.password());
        for (Object o : connections) {
            if (o instanceof MikyuManagedConnection mc && mc.usable() && mc.credentials().sameAs(who)
                    && mc.settings().url().equals(settings.url())) {
                return mc;
            }
        }
        return null;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Set getInvalidConnections(Set connections) {
        Set invalid = new HashSet();
        for (Object o : connections) {
            if (o instanceof MikyuManagedConnection mc && !mc.usable()) {
                invalid.add(mc);
            }
        }
        return invalid;
    }

    @Override
    public TransactionSupportLevel getTransactionSupport() {
        return TransactionSupportLevel.XATransaction;
    }

    // ------------------------------------------------------------------------------------------------ settings

    /**
     * The adapter's properties under this pool's: URL (with every option), user and password.
     *
     * @throws InvalidPropertyException naming the property, if the result is not a valid mikyu URL
     */
    public ConnectionSettings settings() throws InvalidPropertyException {
        try {
            return ConnectionSettings.resolve(adapter, this);
        } catch (IllegalArgumentException e) {
            InvalidPropertyException ipe = new InvalidPropertyException("mikyu connection definition: "
                    + e.getMessage(), e);
            throw ipe;
        }
    }

    // ------------------------------------------------------------------------------------------------ JCA

    /** The adapter this pool belongs to; null outside a server. */
    OwningAdapter adapter() {
        return adapter;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return adapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) throws ResourceException {
        if (!(ra instanceof OwningAdapter m)) {
            throw new ResourceException("a mikyu connection definition belongs to the mikyu resource adapter, not "
                    + ra);
        }
        this.adapter = m;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }

    @Override
    public String toString() {
        String where;
        try {
            where = settings().describe();
        } catch (InvalidPropertyException e) {
            where = "invalid: " + e.getMessage();
        }
        return "MikyuManagedConnectionFactory[" + where + "]";
    }

    /**
     * {@code clientID} under the name a server may use: WildFly configures a pool declared with
     * {@code @JMSConnectionFactoryDefinition(clientId = ...)} through {@code setClientId}, and fails the
     * deployment when the setter is missing (IJ020060).
     */
    public String getClientId() {
        return getClientID();
    }

    public void setClientId(String v) {
        setClientID(v);
    }
}
