package io.mikyu.jca.testkit;

import com.arjuna.ats.arjuna.common.CoreEnvironmentBeanException;
import com.arjuna.ats.arjuna.common.ObjectStoreEnvironmentBean;
import com.arjuna.ats.arjuna.common.arjPropertyManager;
import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple;
import com.arjuna.common.internal.util.propertyservice.BeanPopulator;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/**
 * Narayana JTA as a server's transaction manager, configured once for the test JVM: its object store in a
 * temporary directory (removed at exit), no sockets.
 */
public final class Jta {

    private static TransactionManager tm;
    private static TransactionSynchronizationRegistry tsr;

    private Jta() {
    }

    public static synchronized TransactionManager tm() {
        if (tm == null) {
            try {
                Path store = Files.createTempDirectory("mikyu-jca-narayana-");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(store)));
                arjPropertyManager.getCoreEnvironmentBean().setNodeIdentifier("mikyu-jca-test");
                String dir = store.toAbsolutePath().toString();
                BeanPopulator.getDefaultInstance(ObjectStoreEnvironmentBean.class).setObjectStoreDir(dir);
                BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, "communicationStore")
                        .setObjectStoreDir(dir);
                BeanPopulator.getNamedInstance(ObjectStoreEnvironmentBean.class, "stateStore").setObjectStoreDir(dir);
                arjPropertyManager.getCoordinatorEnvironmentBean().setTransactionStatusManagerEnable(false);
                arjPropertyManager.getCoordinatorEnvironmentBean().setDefaultTimeout(60);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (CoreEnvironmentBeanException e) {
                throw new IllegalStateException(e);
            }
            tm = com.arjuna.ats.jta.TransactionManager.transactionManager();
            tsr = new TransactionSynchronizationRegistryImple();
        }
        return tm;
    }

    public static synchronized TransactionSynchronizationRegistry tsr() {
        tm();
        return tsr;
    }

    private static void delete(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: best effort
        }
    }
}
