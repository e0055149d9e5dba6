package io.mikyu.jca.testkit;

import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.XATerminator;
import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.util.Timer;

/** What a server gives a resource adapter at start: a WorkManager, timers, the transaction registry. */
public final class TestBootstrapContext implements BootstrapContext {

    private final ExecutorWorkManager workManager = new ExecutorWorkManager();

    @Override
    public WorkManager getWorkManager() {
        return workManager;
    }

    public ExecutorWorkManager workManager() {
        return workManager;
    }

    @Override
    public XATerminator getXATerminator() {
        return null;
    }

    @Override
    public Timer createTimer() {
        return new Timer(true);
    }

    @Override
    public boolean isContextSupported(Class<? extends WorkContext> workContextClass) {
        return HintsContext.class.equals(workContextClass);
    }

    @Override
    public TransactionSynchronizationRegistry getTransactionSynchronizationRegistry() {
        return Jta.tsr();
    }
}
