package io.mikyu.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Task-queue commands. Every {@link Cli#run} opens and closes the store, as separate processes would. */
class TaskCommandsTest {

    private static final Pattern TOKEN = Pattern.compile(" token=(\\S+) ");

    @TempDir
    Path dataDir;

    Cli cli;

    @BeforeEach
    void setUp() {
        cli = new Cli(dataDir);
    }

    @Test
    void createOfATaskQueuePrintsItsSettingsAndItsDeadLetterQueue() {
        Cli.Run run = cli.run("create", "--type", "task", "jobs", "--durability", "sync", "--max-attempts", "3",
                "--backoff", "2s", "--backoff-multiplier", "1.5", "--backoff-max", "1m", "--lease", "45s",
                "--segment-bytes", "8MiB");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("created task queue jobs (durability sync, max attempts 3, backoff 2s x1.5"
                + " up to 1m, lease 45s, segment 8 MiB) and its dead-letter queue jobs/dlq");
        assertThat(cli.run("list").outLines()).containsExactly(
                "task/jobs ready=0 scheduled=0 in-flight=0", "task/jobs/dlq ready=0 scheduled=0 in-flight=0");
    }

    @Test
    void createRejectsTheOptionsOfTheOtherKindOfQueue() {
        Cli.Run task = cli.run("create", "--type", "task", "jobs", "--retention-age", "7d");
        Cli.Run log = cli.run("create", "events", "--max-attempts", "3");
        Cli.Run backoff = cli.run("create", "--type", "task", "jobs", "--backoff", "10m");

        assertThat(task.exitCode()).isEqualTo(2);
        assertThat(task.errLines()).singleElement().asString().contains("--retention-age applies to log queues only");
        assertThat(log.exitCode()).isEqualTo(2);
        assertThat(log.errLines()).singleElement().asString().contains("--max-attempts applies to task queues only");
        assertThat(backoff.exitCode()).isEqualTo(2);
        assertThat(backoff.errLines()).singleElement().asString().contains("longer than --backoff-max 5m");
        assertThat(cli.run("list").outLines()).isEmpty();
    }

    @Test
    void enqueuePrintsTheIdAndDequeuePrintsIdTokenAttemptAndPayload() {
        cli.run("create", "--type", "task", "jobs");

        assertThat(cli.run("enqueue", "jobs", "send email").out().strip()).isEqualTo("0");
        assertThat(cli.run("enqueue", "jobs", "--header", "to=ann", "second").out().strip()).isEqualTo("1");
        Cli.Run run = cli.run("dequeue", "jobs");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.outLines()).singleElement().asString()
                .matches("id=0 token=0-\\d+ attempt=1 priority=4 lease-until=\\S+Z payload=send email");
        assertThat(cli.run("dequeue", "jobs").out()).contains("id=1 ", " headers=to=ann payload=second");
    }

    @Test
    void aLeaseTakenByOneProcessIsAckedByTheNextWithThePrintedToken() {
        cli.run("create", "--type", "task", "jobs");
        cli.run("enqueue", "jobs", "one");
        cli.run("enqueue", "jobs", "two");

        String token = token(cli.run("dequeue", "jobs", "--lease", "5m"));
        assertThat(cli.run("list").outLines()).contains("task/jobs ready=1 scheduled=0 in-flight=1");
        Cli.Run ack = cli.run("ack", "jobs", token);

        assertThat(ack.exitCode()).as(ack.err()).isZero();
        assertThat(ack.out().strip()).isEqualTo("acked task 0");
        assertThat(cli.run("list").outLines()).contains("task/jobs ready=1 scheduled=0 in-flight=0");
        assertThat(cli.run("peek", "jobs").out()).contains("id=1 ").endsWith("payload=two" + System.lineSeparator());

        Cli.Run again = cli.run("ack", "jobs", token);
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.errLines()).singleElement().asString().startsWith("mikyu: error: ");
    }

    @Test
    void ackTakesSeveralTokensFromOneDequeue() {
        cli.run("create", "--type", "task", "jobs");
        Cli.Run enqueue = cli.runWithStdin("a\nb\nc\n", "enqueue", "jobs", "-");
        assertThat(enqueue.out().strip()).isEqualTo("enqueued 3 tasks from id 0");

        Cli.Run dequeue = cli.run("dequeue", "jobs", "--max", "5");
        assertThat(dequeue.outLines()).hasSize(3);
        List<String> args = new java.util.ArrayList<>(List.of("ack", "jobs"));
        Matcher m = TOKEN.matcher(dequeue.out());
        while (m.find()) {
            args.add(m.group(1));
        }
        Cli.Run ack = cli.run(args.toArray(String[]::new));

        assertThat(ack.out().strip()).isEqualTo("acked 3 tasks");
        assertThat(cli.run("list").outLines()).contains("task/jobs ready=0 scheduled=0 in-flight=0");
    }

    @Test
    void dequeueOfAnEmptyQueuePrintsNothingAndSaysSoOnStandardError() {
        cli.run("create", "--type", "task", "jobs");

        Cli.Run run = cli.run("dequeue", "jobs", "--wait", "300ms");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().contains("no task ready in jobs within 300ms");
    }

    @Test
    void nackWithADelaySchedulesTheTaskAgain() {
        cli.run("create", "--type", "task", "jobs");
        cli.run("enqueue", "jobs", "retry me");
        String token = token(cli.run("dequeue", "jobs"));

        Cli.Run nack = cli.run("nack", "jobs", token, "--delay", "1h");

        assertThat(nack.exitCode()).as(nack.err()).isZero();
        assertThat(nack.out()).startsWith("nacked task 0 (handed out again after 1h");
        assertThat(cli.run("list").outLines()).contains("task/jobs ready=0 scheduled=1 in-flight=0");
        assertThat(cli.run("peek", "jobs").out()).contains("no ready tasks in jobs");
    }

    @Test
    void extendPrintsWhenTheLeaseNowEnds() {
        cli.run("create", "--type", "task", "jobs");
        cli.run("enqueue", "jobs", "slow");
        String token = token(cli.run("dequeue", "jobs", "--lease", "10s"));

        Cli.Run run = cli.run("extend", "jobs", token, "--lease", "1h");

        assertThat(run.exitCode()).as(run.err()).isZero();
        Matcher m = Pattern.compile("lease on task 0 now ends at (\\S+)").matcher(run.out());
        assertThat(m.find()).as(run.out()).isTrue();
        assertThat(Instant.parse(m.group(1))).isAfter(Instant.now().plusSeconds(3500));
    }

    @Test
    void aTaskOutOfAttemptsIsADeadLetterThatRedriveMovesBack() {
        cli.run("create", "--type", "task", "jobs", "--max-attempts", "1");
        cli.run("enqueue", "jobs", "--header", "to=ann", "--priority", "7", "hello");
        cli.run("nack", "jobs", token(cli.run("dequeue", "jobs")), "--reason", "smtp down");

        Cli.Run dlq = cli.run("dlq", "jobs");

        assertThat(dlq.exitCode()).as(dlq.err()).isZero();
        assertThat(dlq.outLines()).singleElement().asString()
                .matches("id=\\d+ queue=jobs original-id=0 attempts=1 reason=smtp down priority=7 dead-since=\\S+"
                        + " headers=to=ann payload=hello");
        assertThat(cli.run("list").outLines()).contains("task/jobs ready=0 scheduled=0 in-flight=0",
                "task/jobs/dlq ready=1 scheduled=0 in-flight=0");
        assertThat(cli.run("dlq", "jobs").outLines()).hasSize(1); // listing left it there

        Cli.Run redrive = cli.run("dlq", "redrive", "jobs");

        assertThat(redrive.exitCode()).as(redrive.err()).isZero();
        assertThat(redrive.out().strip()).isEqualTo("moved 1 dead letter from jobs/dlq back to jobs");
        assertThat(cli.run("dlq", "jobs").out()).contains("no dead letters in jobs/dlq");
        assertThat(cli.run("browse", "jobs").outLines()).singleElement().asString()
                .matches("id=\\d+ attempts=0 priority=7 enqueued=\\S+ headers=to=ann payload=hello");
    }

    @Test
    void redriveMovesAtMostMax() {
        cli.run("create", "--type", "task", "jobs", "--max-attempts", "1");
        cli.runWithStdin("a\nb\nc\n", "enqueue", "jobs", "-");
        Matcher m = TOKEN.matcher(cli.run("dequeue", "jobs", "--max", "3").out());
        while (m.find()) {
            cli.run("nack", "jobs", m.group(1));
        }

        assertThat(cli.run("dlq", "redrive", "jobs", "--max", "2").out()).contains("moved 2 dead letters");
        assertThat(cli.run("dlq", "jobs/dlq").outLines()).hasSize(1);
        assertThat(cli.run("browse", "jobs").outLines()).extracting(l -> l.substring(l.indexOf("payload=")))
                .containsExactly("payload=a", "payload=b");
    }

    @Test
    void priorityComesFirstAndDelayedTasksWait() {
        cli.run("create", "--type", "task", "jobs");
        cli.run("enqueue", "jobs", "low", "--priority", "1");
        cli.run("enqueue", "jobs", "high", "--priority", "9");
        cli.run("enqueue", "jobs", "later", "--delay", "1h");
        cli.run("enqueue", "jobs", "tomorrow", "--at", Instant.now().plusSeconds(86_400).toString());
        cli.run("enqueue", "jobs", "short-lived", "--ttl", "1h");

        assertThat(cli.run("browse", "jobs").outLines()).extracting(l -> l.substring(l.indexOf("payload=")))
                .containsExactly("payload=high", "payload=short-lived", "payload=low");
        assertThat(cli.run("browse", "jobs").out()).containsPattern("id=4 attempts=0 priority=4 enqueued=\\S+ expires=\\S+ ");
        assertThat(cli.run("list").outLines()).contains("task/jobs ready=3 scheduled=2 in-flight=0");
        assertThat(cli.run("peek", "jobs").outLines()).singleElement().asString().endsWith("payload=high");
    }

    @Test
    void headerEqualsFiltersDequeueAndBrowse() {
        cli.run("create", "--type", "task", "jobs");
        cli.run("enqueue", "jobs", "--header", "region=us", "u1");
        cli.run("enqueue", "jobs", "--header", "region=eu", "--header", "kind=mail", "e1");
        cli.run("enqueue", "jobs", "--header", "region=eu", "e2");

        assertThat(cli.run("browse", "jobs", "--header-equals", "region=eu").outLines())
                .extracting(l -> l.substring(l.indexOf("payload="))).containsExactly("payload=e1", "payload=e2");
        assertThat(cli.run("peek", "jobs", "--header-equals", "region=eu", "--header-equals", "kind=mail").out())
                .contains("payload=e1");
        Cli.Run run = cli.run("dequeue", "jobs", "--max", "10", "--header-equals", "region=eu");

        assertThat(run.outLines()).extracting(l -> l.substring(l.indexOf("payload=")))
                .containsExactly("payload=e1", "payload=e2");
        assertThat(cli.run("dequeue", "jobs", "--header-equals", "region=eu").err()).contains("matches the filter");
        assertThat(cli.run("peek", "jobs").out()).contains("payload=u1");
    }

    @Test
    void badTokensAndFiltersAreUsageErrors() {
        cli.run("create", "--type", "task", "jobs");

        Cli.Run token = cli.run("ack", "jobs", "nonsense");
        Cli.Run filter = cli.run("dequeue", "jobs", "--header-equals", "region");
        Cli.Run priority = cli.run("enqueue", "jobs", "x", "--priority", "10");
        Cli.Run when = cli.run("enqueue", "jobs", "x", "--delay", "1s", "--at", "2030-01-01T00:00:00Z");

        assertThat(token.exitCode()).isEqualTo(2);
        assertThat(token.errLines()).singleElement().asString().contains("not a lease token: 'nonsense'");
        assertThat(filter.exitCode()).isEqualTo(2);
        assertThat(filter.errLines()).singleElement().asString().contains("is not NAME=VALUE");
        assertThat(priority.exitCode()).isEqualTo(2);
        assertThat(priority.errLines()).singleElement().asString().contains("--priority must be 0-9");
        assertThat(when.exitCode()).isEqualTo(2);
        assertThat(when.errLines()).singleElement().asString().contains("mutually exclusive");
    }

    @Test
    void logCommandsOnATaskQueueAndTaskCommandsOnALogQueueFailInOneLine() {
        cli.run("create", "events");

        Cli.Run run = cli.run("enqueue", "events", "x");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mikyu: error: ").contains("events");
    }

    @Test
    void deleteTellsKindsApartAndAsksWhenALogAndATaskQueueShareTheName() {
        cli.run("create", "events");
        cli.run("create", "--type", "task", "events");
        cli.run("create", "--type", "task", "jobs");

        Cli.Run ambiguous = cli.run("delete", "events");
        assertThat(ambiguous.exitCode()).isEqualTo(2);
        assertThat(ambiguous.errLines()).singleElement().asString().contains("--type log", "--type task");

        assertThat(cli.run("delete", "--type", "task", "events").out().strip())
                .isEqualTo("deleted task queue events and its dead-letter queue events/dlq");
        assertThat(cli.run("delete", "events").out().strip()).isEqualTo("deleted log queue events");
        Cli.Run dlq = cli.run("delete", "jobs/dlq");
        assertThat(dlq.exitCode()).isEqualTo(1);
        assertThat(dlq.errLines()).singleElement().asString().contains("dead-letter queue of jobs");
        assertThat(cli.run("delete", "jobs").out()).contains("deleted task queue jobs");
        assertThat(cli.run("list").outLines()).isEmpty();
    }

    @Test
    void statsShowsTaskQueuesWithTheirCountsAndOneInDetail() {
        cli.run("create", "events");
        cli.run("create", "--type", "task", "jobs", "--lease", "45s");
        cli.runWithStdin("a\nb\n", "enqueue", "jobs", "-");
        cli.run("dequeue", "jobs");

        Cli.Run all = cli.run("stats");
        Cli.Run one = cli.run("stats", "jobs");

        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(all.out()).contains("1 log, 2 task", "TASK QUEUE", "READY", "SCHEDULED", "IN-FLIGHT");
        assertThat(all.outLines()).anyMatch(line -> line.matches("jobs\\s+1\\s+0\\s+1\\s+.*"))
                .anyMatch(line -> line.matches("jobs/dlq\\s+0\\s+0\\s+0\\s+.*"));
        assertThat(one.exitCode()).as(one.err()).isZero();
        assertThat(one.out()).contains("task/jobs", "lease 45s", "1 ready, 0 scheduled, 1 in flight",
                "dead letters      0 in jobs/dlq");
    }

    @Test
    void everyTaskCommandHasHelp() {
        for (String command : List.of("enqueue", "dequeue", "ack", "nack", "extend", "peek", "browse", "dlq")) {
            Cli.Run run = Cli.runExactly(null, command, "--help");
            assertThat(run.exitCode()).as(command).isZero();
            assertThat(run.out()).as(command).contains("Usage: mikyu " + command);
        }
        assertThat(Cli.runExactly(null, "dlq", "redrive", "--help").out()).contains("Usage: mikyu dlq redrive");
    }

    private static String token(Cli.Run dequeue) {
        Matcher m = TOKEN.matcher(dequeue.out());
        assertThat(m.find()).as("a token in '%s' (stderr '%s')", dequeue.out(), dequeue.err()).isTrue();
        return m.group(1);
    }
}
