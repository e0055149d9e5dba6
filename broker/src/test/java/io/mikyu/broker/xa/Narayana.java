package io.mikyu.broker.xa;

import com.arjuna.ats.arjuna.common.CoreEnvironmentBeanException;
import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.RecoveryEnvironmentBean;
import com.arjuna.ats.arjuna.common.arjPropertyManager;
import com.arjuna.ats.arjuna.common.recoveryPropertyManager;
import com.arjuna.ats.arjuna.recovery.RecoveryManager;
import com.arjuna.ats.internal.arjuna.recovery.AtomicActionRecoveryModule;
import com.arjuna.ats.internal.jta.recovery.arjunacore.JTANodeNameXAResourceOrphanFilter;
import com.arjuna.ats.internal.jta.recovery.arjunacore.JTATransactionLogXAResourceOrphanFilter;
import com.arjuna.ats.internal.jta.recovery.arjunacore.XARecoveryModule;
import com.arjuna.ats.jta.common.JTAEnvironmentBean;
import com.arjuna.ats.jta.common.jtaPropertyManager;
import com.arjuna.ats.jta.recovery.XAResourceRecoveryHelper;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;
import jakarta.transaction.TransactionManager;

import javax.transaction.xa.XAResource;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * Narayana JTA outside any server, configured in code for one JVM: its object store in a directory of the test's,
 * a node identifier of its own (so that recovery may roll back branches this "application" left in doubt), no
 * sockets (no transaction status manager, no recovery listener), and recovery driven by
 * {@link RecoveryManager#scan()} alone: the transaction log module first (it replays logged decisions), then the XA
 * module (it finds the branches through the helpers and rolls back those of this node that no log speaks of).
 *
 * <p>Narayana's configuration is per JVM: {@link #configure(Path)} must run before anything else touches Narayana.
 */
final class Narayana {

    /** The node identifier every test "application" runs as; recovery rolls back orphans of this node only. */
    static final String NODE = "mikyu-xa-test";

    private static Path configuredStore;

    private Narayana() {
    }

    /** Configures this JVM's Narayana; again with the same directory is a no-op, with another one refused. */
    static synchronized void configure(Path objectStore) {
        if (configuredStore != null) {
            if (!configuredStore.equals(objectStore)) {
                throw new IllegalStateException("Narayana is configured for " + configuredStore + " in this JVM");
            }
            return;
        }
        try {
            arjPropertyManager.getCoreEnvironmentBean().setNodeIdentifier(NODE);
        } catch (CoreEnvironmentBeanException e) {
            throw new IllegalStateException(e);
        }
        String dir = objectStore.toAbsolutePath().toString();
        BeanPopulator.getDefaultInstance(ObjectStoreEnvironmentBean.class).setObjectStoreDir(dir);
        BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, "communicationStore").setObjectStoreDir(dir);
        BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, "stateStore").setObjectStoreDir(dir);
        arjPropertyManager.getCoordinatorEnvironmentBean().setTransactionStatusManagerEnable(false);
        arjPropertyManager.getCoordinatorEnvironmentBean().setDefaultTimeout(60);

        RecoveryEnvironmentBean recovery = recoveryPropertyManager.getRecoveryEnvironmentBean();
        recovery.setRecoveryListener(false);
        recovery.setRecoveryBackoffPeriod(1);           // seconds between a scan's two passes (0 waits forever)
        recovery.setPeriodicRecoveryPeriod(3_600);      // never by itself: the tests call scan()
        recovery.setRecoveryModuleClassNames(List.of(AtomicActionRecoveryModule.class.getName(),
                XARecoveryModule.class.getName()));
        recovery.setExpiryScannerClassNames(List.of());
        recovery.setRecoveryActivatorClassNames(List.of());

        JTAEnvironmentBean jta = jtaPropertyManager.getJTAEnvironmentBean();
        jta.setXaRecoveryNodes(List.of(NODE));
        jta.setOrphanSafetyInterval(0);
        // Every resource manager of these applications has a recovery helper, so a logged branch that no helper
        // lists any more was completed (e.g. mikyu committed before the crash): recovery may forget it.
        jta.setXaAssumeRecoveryComplete(true);
        jta.setXaResourceOrphanFilterClassNames(List.of(JTATransactionLogXAResourceOrphanFilter.class.getName(),
                JTANodeNameXAResourceOrphanFilter.class.getName()));
        configuredStore = objectStore;
    }

    /**
     * Configures Narayana for the test JVM itself, once: its object store in a temporary directory of its own
     * (removed when the JVM exits). The crash tests' applications run in child JVMs with their own stores.
     */
    static synchronized void configureThisJvm() {
        if (configuredStore == null) {
            try {
                Path store = java.nio.file.Files.createTempDirectory("mikyu-xa-narayana-");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(store)));
                configure(store);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static void deleteTree(Path root) {
        try (var paths = java.nio.file.Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temporary directory: best effort
        }
    }

    static TransactionManager transactionManager() {
        requireConfigured();
        return com.arjuna.ats.jta.TransactionManager.transactionManager();
    }

    /** The recovery manager, run only when asked ({@link RecoveryManager#scan()}), with these helpers. */
    static RecoveryManager recoveryManager(List<Supplier<XAResource>> resources) {
        return recovery(resources).manager();
    }

    /**
     * The recovery manager (one per JVM, run only when asked: {@link RecoveryManager#scan()}) with helpers for
     * these resources, removed again by {@link Recovery#close()}.
     */
    static Recovery recovery(List<Supplier<XAResource>> resources) {
        requireConfigured();
        RecoveryManager manager = RecoveryManager.manager(RecoveryManager.INDIRECT_MANAGEMENT);
        XARecoveryModule xa = XARecoveryModule.getRegisteredXARecoveryModule();
        if (xa == null) {
            throw new IllegalStateException("Narayana's XARecoveryModule is not registered");
        }
        List<XAResourceRecoveryHelper> helpers = new java.util.ArrayList<>();
        for (Supplier<XAResource> resource : resources) {
            XAResourceRecoveryHelper helper = new XAResourceRecoveryHelper() {
                @Override
                public boolean initialise(String p) {
                    return true;
                }

                @Override
                public XAResource[] getXAResources() {
                    return new XAResource[] {resource.get()};
                }
            };
            xa.addXAResourceRecoveryHelper(helper);
            helpers.add(helper);
        }
        return new Recovery(manager, xa, helpers);
    }

    record Recovery(RecoveryManager manager, XARecoveryModule module, List<XAResourceRecoveryHelper> helpers)
            implements AutoCloseable {

        void scan() {
            manager.scan();
        }

        @Override
        public void close() {
            helpers.forEach(module::removeXAResourceRecoveryHelper);
        }
    }

    private static synchronized void requireConfigured() {
        if (configuredStore == null) {
            throw new IllegalStateException("Narayana.configure(objectStore) first");
        }
    }
}
