package io.mikyu.engine.task;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.support.ChildProcess;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The child process of {@link DeadLetterCrashTest}: opens the store made by the test, takes the one message of the
 * task queue {@code jobs} (or of the shared group {@code src:sg}) and nacks it, its last attempt, which moves it to
 * the dead-letter queue. The test sets a crash point of the transaction manager, so the process halts inside the
 * move. Prints {@code NACKING} before the nack and {@code MOVED} if it returns.
 */
public final class DeadLetterChild {

    private DeadLetterChild() {
    }

    public static void main(String[] args) throws Exception {
        Mikyu store = Mikyu.open(Path.of(args[0]));
        // Short: a queue that moved it twice would show it as soon as this lease ends after the restart.
        Duration lease = Duration.ofSeconds(2);
        if (args[1].equals("task")) {
            LeasedTask t = store.taskQueue("jobs").dequeue(1, lease, Duration.ofSeconds(10), null).get(0);
            ChildProcess.println("NACKING");
            store.taskQueue("jobs").nack(t.token(), Duration.ZERO, "given up");
        } else {
            SharedGroup sg = store.log("src").sharedGroup("sg", DeadLetterCrashTest.sharedConfig(args[2]));
            SharedGroup.Delivery d = sg.fetch(1, lease, Duration.ofSeconds(10)).get(0);
            ChildProcess.println("NACKING");
            sg.nack(d.token(), Duration.ZERO, "given up");
        }
        ChildProcess.println("MOVED");
        ChildProcess.awaitKill();
    }
}
