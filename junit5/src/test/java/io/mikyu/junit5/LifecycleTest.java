package io.mikyu.junit5;

import io.mikyu.engine.Mikyu;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineExecutionResults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

/**
 * How long a store lives and what is left afterwards: one per class or one per test, its directory deleted when it
 * closes, also after a failed test, and the JMS objects of a test closed after it. Each case runs a fixture class
 * through the Jupiter engine and looks at what it saw.
 */
class LifecycleTest {

    /** What the fixtures saw: their store's directory, URL and JMS objects, for the checks after they ran. */
    static final List<Path> DIRS = new CopyOnWriteArrayList<>();
    static final List<Object> SEEN = new CopyOnWriteArrayList<>();

    @BeforeEach
    void forget() {
        DIRS.clear();
        SEEN.clear();
    }

    @OnlyInTestKit
    @MikyuTest
    @TestMethodOrder(MethodOrderer.MethodName.class)
    static class PerClass {
        @Test
        void a(MikyuQueues queues, Mikyu mikyu) {
            DIRS.add(Path.of(mikyu.location()));
            queues.send("left", "by a");
        }

        @Test
        void b(MikyuQueues queues, Mikyu mikyu) {
            DIRS.add(Path.of(mikyu.location()));
            assertThat(queues.depth("left")).isEqualTo(1);   // the same store as a's
        }
    }

    @Test
    void perClassOneStoreForTheClassDeletedAfterIt() {
        Kit.runExpecting(PerClass.class, s -> s.started(2).succeeded(2));
        assertThat(DIRS).hasSize(2);
        assertThat(DIRS.get(0)).isEqualTo(DIRS.get(1));
        assertThat(DIRS.get(0)).doesNotExist();
    }

    @OnlyInTestKit
    @MikyuTest(lifecycle = StoreLifecycle.PER_TEST)
    @TestMethodOrder(MethodOrderer.MethodName.class)
    static class PerTest {
        @Test
        void a(MikyuQueues queues, Mikyu mikyu) {
            Path dir = Path.of(mikyu.location());
            assertThat(dir).isDirectory();
            DIRS.add(dir);
            queues.send("left", "by a");
        }

        @Test
        void b(MikyuQueues queues, Mikyu mikyu) {
            DIRS.add(Path.of(mikyu.location()));
            assertThatThrownBy(() -> queues.depth("left")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no queue 'left'");
        }
    }

    @Test
    void perTestAFreshStoreForEachTestDeletedAfterIt() {
        Kit.runExpecting(PerTest.class, s -> s.started(2).succeeded(2));
        assertThat(DIRS).hasSize(2).doesNotHaveDuplicates();
        assertThat(DIRS).allSatisfy(dir -> assertThat(dir).doesNotExist());
    }

    @OnlyInTestKit
    @MikyuTest(lifecycle = StoreLifecycle.PER_TEST)
    static class FailingPerTest {
        @Test
        void fails(Mikyu mikyu, JMSContext jms) {
            DIRS.add(Path.of(mikyu.location()));
            SEEN.add(jms);
            jms.createProducer().send(jms.createQueue("q"), "x");
            throw new AssertionError("on purpose");
        }
    }

    @OnlyInTestKit
    @MikyuTest
    static class FailingPerClass {
        @Test
        void fails(Mikyu mikyu) {
            DIRS.add(Path.of(mikyu.location()));
            throw new IllegalStateException("on purpose");
        }
    }

    @Test
    void aFailedTestStillHasItsStoreDeletedAndItsJmsObjectsClosed() {
        Kit.runExpecting(FailingPerTest.class, s -> s.started(1).failed(1));
        Kit.runExpecting(FailingPerClass.class, s -> s.started(1).failed(1));
        assertThat(DIRS).hasSize(2).allSatisfy(dir -> assertThat(dir).doesNotExist());
        JMSContext jms = (JMSContext) SEEN.get(0);
        assertThatThrownBy(jms::createProducer).isInstanceOf(jakarta.jms.IllegalStateRuntimeException.class);
    }

    @OnlyInTestKit
    @MikyuTest
    static class LeavesAConnectionOpen {
        @Test
        void leaks(ConnectionFactory factory, Mikyu mikyu) throws Exception {
            DIRS.add(Path.of(mikyu.location()));
            Connection leaked = factory.createConnection();
            SEEN.add(leaked);
            leaked.createSession().createProducer(null);
        }
    }

    @Test
    void aConnectionTheTestLeftOpenDoesNotKeepTheStore() throws Exception {
        Kit.runExpecting(LeavesAConnectionOpen.class, s -> s.started(1).succeeded(1));
        assertThat(DIRS.get(0)).doesNotExist();
        Connection leaked = (Connection) SEEN.get(0);
        assertThatThrownBy(() -> leaked.createSession().createProducer(null).send(
                new io.mikyu.jms.MikyuQueue("q"), leaked.createSession().createTextMessage("after")))
                .isInstanceOf(jakarta.jms.JMSException.class);
        leaked.close();
    }

    @OnlyInTestKit
    @MikyuTest
    static class StaticFields {
        @InjectMikyu
        static Mikyu mikyu;
        @MikyuUrl
        static String url;
        static String seenInBeforeAll;

        @BeforeAll
        static void before(MikyuQueues queues) {
            seenInBeforeAll = url;
            queues.send("prepared", "in @BeforeAll");
        }

        @Test
        void seesWhatBeforeAllPrepared(MikyuQueues queues, @MikyuUrl String sameUrl) {
            assertThat(seenInBeforeAll).isEqualTo(sameUrl);
            assertThat(mikyu.taskQueue("prepared").counts().depth()).isEqualTo(1);
            DIRS.add(Path.of(mikyu.location()));
        }
    }

    @Test
    void staticFieldsAndBeforeAllParametersForAStorePerClass() {
        Kit.runExpecting(StaticFields.class, s -> s.started(1).succeeded(1));
        assertThat(DIRS.get(0)).doesNotExist();
    }

    @OnlyInTestKit
    @MikyuTest
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    static class OneTestInstance {
        @InjectMikyu
        MikyuQueues queues;

        @BeforeAll
        void before(MikyuQueues given) {
            given.send("prepared", "by a non-static @BeforeAll");
        }

        @Test
        void seesIt(Mikyu mikyu) {
            assertThat(queues.depth("prepared")).isEqualTo(1);
            DIRS.add(Path.of(mikyu.location()));
        }
    }

    @Test
    void aTestClassWithOneInstanceGetsItsFieldsAndBeforeAllParameters() {
        Kit.runExpecting(OneTestInstance.class, s -> s.started(1).succeeded(1));
        assertThat(DIRS.get(0)).doesNotExist();
    }

    @OnlyInTestKit
    @MikyuTest(lifecycle = StoreLifecycle.PER_TEST)
    static class PerTestInBeforeAll {
        @BeforeAll
        static void before(MikyuQueues queues) {
        }

        @Test
        void never() {
        }
    }

    @Test
    void aPerTestStoreIsNotThereForBeforeAll() {
        EngineExecutionResults results = Kit.run(PerTestInBeforeAll.class);
        results.containerEvents().assertThatEvents().haveExactly(1, finishedWithFailure(
                message(m -> m.contains("the store is per test"))));
    }

    @OnlyInTestKit
    @MikyuTest
    static class OuterWithNested {
        @Test
        void outer(Mikyu mikyu) {
            DIRS.add(Path.of(mikyu.location()));
        }

        @Nested
        class Inner {
            @Test
            void inner(Mikyu mikyu) {
                DIRS.add(Path.of(mikyu.location()));
            }
        }
    }

    @Test
    void nestedClassesShareTheirOuterClassStore() {
        Kit.runExpecting(OuterWithNested.class, s -> s.started(2).succeeded(2));
        assertThat(DIRS).hasSize(2);
        assertThat(DIRS.get(0)).isEqualTo(DIRS.get(1)).doesNotExist();
    }

    @OnlyInTestKit
    static class RegisteredStatic {
        @RegisterExtension
        static MikyuExtension mikyu = MikyuExtension.builder().option("maxAttempts", "4").build();

        @AfterAll
        static void storeStillOpen() {
            DIRS.add(mikyu.directory());
        }

        @Test
        void a() {
            DIRS.add(mikyu.directory());
            assertThat(mikyu.url()).contains("maxAttempts=4").contains("durability=async");
        }

        @Test
        void b() {
            DIRS.add(mikyu.directory());
        }
    }

    @Test
    void aStaticRegisteredExtensionIsPerClassWithItsOptions() {
        Kit.runExpecting(RegisteredStatic.class, s -> s.started(2).succeeded(2));
        assertThat(DIRS).hasSize(3);
        assertThat(DIRS).containsOnly(DIRS.get(0));
        assertThat(DIRS.get(0)).doesNotExist();
    }

    @OnlyInTestKit
    @TestMethodOrder(MethodOrderer.MethodName.class)
    static class RegisteredOnInstance {
        @RegisterExtension
        MikyuExtension mikyu = MikyuExtension.builder().build();

        @Test
        void a() {
            DIRS.add(mikyu.directory());
        }

        @Test
        void b() {
            DIRS.add(mikyu.directory());
        }
    }

    @OnlyInTestKit
    static class PerClassOnInstance {
        @RegisterExtension
        MikyuExtension mikyu = MikyuExtension.builder().perClass().build();

        @Test
        void never() {
        }
    }

    @Test
    void anInstanceFieldExtensionIsPerTestAndCannotBePerClass() {
        Kit.runExpecting(RegisteredOnInstance.class, s -> s.started(2).succeeded(2));
        assertThat(DIRS).hasSize(2).doesNotHaveDuplicates().allSatisfy(d -> assertThat(d).doesNotExist());

        Kit.runExpecting(PerClassOnInstance.class, s -> s.started(1).failed(1)).testEvents().assertThatEvents()
                .haveExactly(1, finishedWithFailure(message(m -> m.contains("static @RegisterExtension field"))));
    }

    @Test
    void theDirectoryIsWhereTheBuilderSays() {
        Kit.runExpecting(ParentDirectory.class, s -> s.started(1).succeeded(1));
        assertThat(DIRS.get(0).toAbsolutePath().getParent()).isEqualTo(ParentDirectory.PARENT.toAbsolutePath());
        assertThat(DIRS.get(0)).doesNotExist();
    }

    @OnlyInTestKit
    static class ParentDirectory {
        static final Path PARENT = Path.of("target", "mikyu-test-stores");
        @RegisterExtension
        static MikyuExtension mikyu = MikyuExtension.builder().directory(PARENT).build();

        @Test
        void there() {
            assertThat(Files.isDirectory(mikyu.directory())).isTrue();
            DIRS.add(mikyu.directory());
        }
    }

    @OnlyInTestKit
    @MikyuTest(options = "noSuchOption=1")
    static class BadOption {
        @Test
        void never() {
        }
    }

    @Test
    void badOptionsAreRefusedWithTheProvidersMessage() {
        assertThatThrownBy(() -> MikyuExtension.builder().option("maxAtempts", "3").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option 'maxAtempts'");
        assertThatThrownBy(() -> MikyuExtension.builder().option("durability", "sync").build())
                .hasMessageContaining("use the durability setting");
        Kit.run(BadOption.class).containerEvents().assertThatEvents().haveExactly(1, finishedWithFailure(
                instanceOf(org.junit.jupiter.api.extension.ExtensionConfigurationException.class),
                message(m -> m.contains("unknown option 'noSuchOption'"))));
    }
}
