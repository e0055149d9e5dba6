package io.mikyu.broker.server;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.security.PasswordHash;
import io.mikyu.engine.security.SecurityRealm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Users, passwords and per-queue permissions on a broker: the handshake authenticates, each request is authorized. */
class BrokerSecurityTest {

    /** Users of the tests: a producer, a consumer, an administrator. Few PBKDF2 iterations keep the test fast. */
    static SecurityRealm realm() {
        return SecurityRealm.from(MikyuConfig.load(null, Map.of(
                "users.writer.password", PasswordHash.hash("w-pass".toCharArray(), 1_000),
                "users.writer.roles", "writers",
                "users.reader.password", PasswordHash.hash("r-pass".toCharArray(), 1_000),
                "users.reader.roles", "readers",
                "users.admin.password", PasswordHash.hash("a-pass".toCharArray(), 1_000),
                "users.admin.roles", "admins",
                "roles.writers.produce", "orders, events.*",
                "roles.readers.consume", "orders, events.*",
                "roles.admins.manage", "*"), "test"));
    }

    @TempDir
    Path dir;

    RunningBroker broker;

    @BeforeEach
    void start() {
        broker = new RunningBroker(dir, RunningBroker.ENGINE, o -> o.withRealm(realm()));
        broker.store().createTaskQueue("orders");
        broker.store().createLog("events.eu");
        broker.store().createLog("secret");
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    Mikyu dial(String user, String password) {
        return Mikyu.dial(broker.uri() + "?connectTimeout=5s", Map.of("user", user, "password", password));
    }

    @Test
    void shouldRefuseAWrongPasswordInTheHandshake() {
        assertThatThrownBy(() -> dial("writer", "wrong"))
                .isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("wrong user name or password for user 'writer'");
    }

    @Test
    void shouldRefuseAnUnknownUserAndAClientWithoutCredentials() {
        assertThatThrownBy(() -> dial("mallory", "w-pass")).isInstanceOf(AuthenticationException.class);
        assertThatThrownBy(() -> Mikyu.dial(broker.uri())).isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("authentication is on");
    }

    @Test
    void shouldLetAUserDoWhatTheirRolesGrantAndNothingElse() throws Exception {
        try (Mikyu writer = dial("writer", "w-pass"); Mikyu reader = dial("reader", "r-pass")) {
            TaskQueue asWriter = writer.taskQueue("orders");
            asWriter.enqueue(Task.of("2 coffees"));
            assertThatThrownBy(() -> asWriter.dequeue(Duration.ZERO))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessage("user 'writer' lacks the consume permission on queue 'orders'");
            assertThatThrownBy(asWriter::purge).isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("manage");

            TaskQueue asReader = reader.taskQueue("orders");
            assertThatThrownBy(() -> asReader.enqueue(Task.of("forged")))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessage("user 'reader' lacks the produce permission on queue 'orders'");
            var task = asReader.dequeue(Duration.ofSeconds(1));
            assertThat(task.payloadAsString()).isEqualTo("2 coffees");
            asReader.ack(task.token());

            LogQueue events = writer.log("events.eu");
            events.append(Entry.of("hello"));
            assertThat(reader.log("events.eu").read(0).payloadAsString()).isEqualTo("hello");
            assertThatThrownBy(() -> reader.log("secret")).isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("no permission on queue 'secret'");
            assertThat(reader.list(QueueKind.LOG)).containsExactly("events.eu");
            // The connection stays usable after a refusal.
            assertThat(reader.log("events.eu").endOffset()).isEqualTo(1);
        }
    }

    @Test
    void shouldNeedManageToCreateAQueueButNotToUseOne() {
        try (Mikyu writer = dial("writer", "w-pass"); Mikyu admin = dial("admin", "a-pass")) {
            assertThat(writer.getOrCreateTaskQueue("orders", TaskQueueConfig.defaults()).name()).isEqualTo("orders");
            assertThatThrownBy(() -> writer.getOrCreateLog("events.us", LogQueueConfig.defaults()))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("manage permission needed to create queue 'events.us'");
            assertThatThrownBy(() -> writer.deleteLog("events.eu")).isInstanceOf(AccessDeniedException.class);
            admin.getOrCreateLog("events.us", LogQueueConfig.defaults());
            writer.log("events.us").append(Entry.of("now it exists"));
            assertThat(admin.deleteLog("secret")).isTrue();
        }
    }

    @Test
    void shouldAuthorizeEveryOperationOfATransactionBeforeAnyIsDone() {
        try (Mikyu writer = dial("writer", "w-pass")) {
            Transaction tx = writer.beginTransaction();
            tx.enqueue("orders", Task.of("one")).append("secret", Entry.of("sneaky"));
            assertThatThrownBy(tx::commit).isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("queue 'secret'");
            assertThat(broker.store().taskQueue("orders").counts().ready()).isZero();
        }
    }
}
