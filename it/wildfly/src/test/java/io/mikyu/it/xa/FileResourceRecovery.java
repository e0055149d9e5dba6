package io.mikyu.it.xa;

import com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule;
import com.arjuna.ats.jta.recovery.XAResourceRecoveryHelper;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import javax.transaction.xa.XAResource;

/**
 * Hands the {@link FileResource} to the server's recovery manager (Narayana) while the application is deployed:
 * the transaction log keeps only the Xid of a resource that is not serializable, and recovery finds the resource
 * to commit it with among those whose {@code recover} lists that Xid. (A serializable one would not help: the log
 * is read by the server's own class loader, which does not see the application's classes.)
 */
@Singleton
@Startup
public class FileResourceRecovery implements XAResourceRecoveryHelper {

    @PostConstruct
    void register() {
        XARecoveryModule.getRegisteredXARecoveryModule().addXAResourceRecoveryHelper(this);
    }

    @PreDestroy
    void unregister() {
        XARecoveryModule.getRegisteredXARecoveryModule().removeXAResourceRecoveryHelper(this);
    }

    @Override
    public boolean initialise(String properties) {
        return true;
    }

    @Override
    public XAResource[] getXAResources() {
        return new XAResource[] {new FileResource(FileResource.directory())};
    }
}
