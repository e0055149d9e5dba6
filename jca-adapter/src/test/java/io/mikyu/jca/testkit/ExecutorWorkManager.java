package io.mikyu.jca.testkit;

import jakarta.resource.spi.work.ExecutionContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkEvent;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkListener;
import jakarta.resource.spi.work.WorkManager;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A server's WorkManager, on a thread pool: runs Work as a container does, with the listener's events. */
public final class ExecutorWorkManager implements WorkManager {

    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-work-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    /** Work running now: a server calls release() on them when it shuts down. */
    private final Set<Work> running = ConcurrentHashMap.newKeySet();

    @Override
    public void doWork(Work work) {
        work.run();
    }

    @Override
    public void doWork(Work work, long startTimeout, ExecutionContext ctx, WorkListener listener) {
        run(work, listener);
    }

    @Override
    public long startWork(Work work) throws WorkException {
        scheduleWork(work);
        return 0;
    }

    @Override
    public long startWork(Work work, long startTimeout, ExecutionContext ctx, WorkListener listener)
            throws WorkException {
        scheduleWork(work, startTimeout, ctx, listener);
        return 0;
    }

    @Override
    public void scheduleWork(Work work) throws WorkException {
        scheduleWork(work, INDEFINITE, null, null);
    }

    @Override
    public void scheduleWork(Work work, long startTimeout, ExecutionContext ctx, WorkListener listener)
            throws WorkException {
        if (listener != null) {
            listener.workAccepted(new WorkEvent(this, WorkEvent.WORK_ACCEPTED, work, null));
        }
        executor.execute(() -> run(work, listener));
    }

    private void run(Work work, WorkListener listener) {
        running.add(work);
        try {
            if (listener != null) {
                listener.workStarted(new WorkEvent(this, WorkEvent.WORK_STARTED, work, null));
            }
            work.run();
        } finally {
            running.remove(work);
            if (listener != null) {
                listener.workCompleted(new WorkEvent(this, WorkEvent.WORK_COMPLETED, work, null));
            }
        }
    }

    public int running() {
        return running.size();
    }

    /** Work of {@code kind} running now. */
    public long running(Class<? extends Work> kind) {
        return running.stream().filter(kind::isInstance).count();
    }

    public void shutdown() throws InterruptedException {
        for (Work w : running) {
            w.release();
        }
        executor.shutdown();
        executor.awaitTermination(10, TimeUnit.SECONDS);
    }
}
