package io.mikyu.junit5;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Mikyu;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnectionFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JUnit 5 extension behind {@link MikyuTest}: a mikyu store in a temporary directory, per test class (default)
 * or per test, closed and deleted afterwards, also when a test fails; and the objects on it, as test method
 * parameters (also of {@code @BeforeEach}, {@code @AfterEach} and, for a per-class store, {@code @BeforeAll}
 * methods) or fields marked {@link InjectMikyu}:
 *
 * <table>
 * <caption>What it injects</caption>
 * <tr><th>type</th><th>what</th><th>closed</th></tr>
 * <tr><td>{@code ConnectionFactory} (also {@code QueueConnectionFactory}, {@code TopicConnectionFactory},
 * {@code MikyuConnectionFactory})</td><td>on the store's {@code vm://} URL</td><td>—</td></tr>
 * <tr><td>{@code JMSContext}</td><td>one per test, {@code AUTO_ACKNOWLEDGE}</td><td>after the test</td></tr>
 * <tr><td>{@code Connection}</td><td>one per test, started</td><td>after the test</td></tr>
 * <tr><td>{@code Mikyu}</td><td>the engine API on the same store (its {@code close()} does nothing: the store is
 * the extension's)</td><td>with the store</td></tr>
 * <tr><td>{@link MikyuQueues}</td><td>send, receive, depths, dead letters, waits</td><td>with the store</td></tr>
 * <tr><td>{@code @}{@link MikyuUrl} {@code String}</td><td>the {@code vm://} URL</td><td>—</td></tr>
 * <tr><td>{@code @}{@link BrokerUrl} {@code String}, {@link MikyuBroker}</td><td>the broker's {@code tcp://} URL
 * and address (broker option)</td><td>with the store</td></tr>
 * </table>
 *
 * <p>Durability is {@code async} unless asked otherwise: tests run fast, and a test process that crashes loses
 * nothing anyway (only a power loss would). The JMS provider's own default is {@code sync}.
 *
 * <p>Options in code, with a static field for a store per class or an instance field for a store per test:
 *
 * <pre>{@code
 * @RegisterExtension
 * static MikyuExtension mikyu = MikyuExtension.builder().option("maxAttempts", "2").broker().build();
 * }</pre>
 *
 * <p>The accessors ({@link #url()}, {@link #queues()}, …) return the store that is open while a test of this
 * extension runs; with tests in parallel, each with its own store, take parameters instead. One mikyu extension per
 * test class: two would both offer the same parameters.
 */
public final class MikyuExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback, ParameterResolver {

    private static final String STORE = "store";
    private static final String CLASS_CALLBACKS = "beforeAll";
    private static final String RESOURCES = "resources:";
    /** Store-wide objects: given to static fields and {@code @BeforeAll} methods as well. */
    private static final Set<Class<?>> STORE_TYPES = Set.of(ConnectionFactory.class, QueueConnectionFactory.class,
            TopicConnectionFactory.class, MikyuConnectionFactory.class, Mikyu.class, MikyuQueues.class,
            MikyuBroker.class);
    /** One per test. */
    private static final Set<Class<?>> TEST_TYPES = Set.of(JMSContext.class, Connection.class);

    /** {@code null}: read {@link MikyuTest} on the test class. */
    private final StoreOptions configured;
    private final Namespace namespace = Namespace.create(MikyuExtension.class, new Object());
    private final Set<TemporaryStore> open = ConcurrentHashMap.newKeySet();

    /**
     * The extension as {@code @ExtendWith(MikyuExtension.class)} or {@link MikyuTest} makes it: the options are
     * {@link MikyuTest}'s on the test class (or an enclosing class), the defaults without it.
     */
    public MikyuExtension() {
        this(null);
    }

    private MikyuExtension(StoreOptions options) {
        this.configured = options;
    }

    /**
     * Options in code, for {@code @RegisterExtension}.
     *
     * @return a builder with {@link MikyuTest}'s defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    // ---- lifecycle

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(namespace).put(CLASS_CALLBACKS, Boolean.TRUE);
        StoreOptions options = options(context);
        if (options.lifecycle() == StoreLifecycle.PER_CLASS && find(context) == null) {
            openStore(context, options);
        }
        injectStaticFields(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        StoreOptions options = options(context);
        boolean perTest = options.lifecycle() == StoreLifecycle.PER_TEST;
        if (!perTest && context.getStore(namespace).get(CLASS_CALLBACKS) == null) {
            // An instance field's extension is made for each test instance and never sees the class begin.
            if (options.lifecycleChosen()) {
                throw new ExtensionConfigurationException("a store per class needs the MikyuExtension in a static"
                        + " @RegisterExtension field; an instance field's extension lives for one test (PER_TEST)");
            }
            perTest = true;
        }
        if (perTest) {
            openStore(context, options);
        }
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            injectFields(context, instance.getClass(), instance);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        end(context);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        end(context);
    }

    /** Closes what was made for this context (a test's JMS objects), then its store if it opened one. */
    private void end(ExtensionContext context) throws Exception {
        ExtensionContext.Store values = context.getStore(namespace);
        Exception failure = null;
        ContextResources resources = values.remove(RESOURCES + context.getUniqueId(), ContextResources.class);
        if (resources != null) {
            try {
                resources.close();
            } catch (Exception e) {
                failure = e;
            }
        }
        OwnedStore owned = values.get(STORE, OwnedStore.class);
        if (owned != null && owned.owner().equals(context.getUniqueId())) {
            values.remove(STORE);
            open.remove(owned.store());
            try {
                owned.store().close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * A store and the context that opened it, the one to close it. Also closed by JUnit when that context ends, should
     * the extension's own after-callback not run (a failure before it).
     */
    private record OwnedStore(TemporaryStore store, String owner) implements AutoCloseable {
        @Override
        public void close() {
            store.close();
        }
    }

    private void openStore(ExtensionContext context, StoreOptions options) {
        TemporaryStore store = TemporaryStore.open(options);
        open.add(store);
        context.getStore(namespace).put(STORE, new OwnedStore(store, context.getUniqueId()));
    }

    /** The store this context sees: its own, or its class's (an enclosing class's for {@code @Nested} ones). */
    private TemporaryStore find(ExtensionContext context) {
        OwnedStore owned = context.getStore(namespace).get(STORE, OwnedStore.class);
        return owned == null ? null : owned.store();
    }

    private StoreOptions options(ExtensionContext context) {
        if (configured != null) {
            return configured;
        }
        for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
            var test = AnnotationSupport.findAnnotation(c, MikyuTest.class);
            if (test.isPresent()) {
                try {
                    return StoreOptions.of(test.get());
                } catch (IllegalArgumentException e) {
                    throw new ExtensionConfigurationException("@MikyuTest on " + c.getName() + ": " + e.getMessage(),
                            e);
                }
            }
        }
        return StoreOptions.defaults();
    }

    // ---- injection

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.isAnnotated(MikyuUrl.class) || parameter.isAnnotated(BrokerUrl.class)
                || STORE_TYPES.contains(parameter.getParameter().getType())
                || TEST_TYPES.contains(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        try {
            return valueFor(parameter.getParameter().getType(), parameter.getParameter(), context);
        } catch (RuntimeException e) {
            throw new ParameterResolutionException("cannot give " + parameter.getParameter() + " of "
                    + parameter.getDeclaringExecutable() + ": " + e.getMessage(), e);
        }
    }

    private Object valueFor(Class<?> type, AnnotatedElement element, ExtensionContext context) {
        boolean vmUrl = element.isAnnotationPresent(MikyuUrl.class);
        boolean brokerUrl = element.isAnnotationPresent(BrokerUrl.class);
        if ((vmUrl || brokerUrl) && type != String.class) {
            throw new ExtensionConfigurationException("@" + (vmUrl ? "MikyuUrl" : "BrokerUrl")
                    + " goes on a String, not a " + type.getName());
        }
        if (!vmUrl && !brokerUrl && !STORE_TYPES.contains(type) && !TEST_TYPES.contains(type)) {
            throw new ExtensionConfigurationException("mikyu cannot inject a " + type.getName() + "; it injects "
                    + "ConnectionFactory, JMSContext, Connection, Mikyu, MikyuQueues, MikyuBroker, and Strings marked"
                    + " @MikyuUrl or @BrokerUrl");
        }
        TemporaryStore store = find(context);
        if (store == null) {
            throw new ExtensionConfigurationException(options(context).lifecycle() == StoreLifecycle.PER_TEST
                    ? "the store is per test (StoreLifecycle.PER_TEST), so there is none for static fields,"
                    + " @BeforeAll methods or constructors: take it in the test, @BeforeEach or @AfterEach"
                    : "no mikyu test store is open here");
        }
        if (vmUrl) {
            return store.url();
        }
        if (brokerUrl) {
            return store.broker().jmsUrl();
        }
        if (type == JMSContext.class) {
            return resources(context).jmsContext(store);
        }
        if (type == Connection.class) {
            return resources(context).connection(store);
        }
        if (type == Mikyu.class) {
            return store.mikyu();
        }
        if (type == MikyuQueues.class) {
            return store.queues();
        }
        if (type == MikyuBroker.class) {
            return store.broker();
        }
        return store.connectionFactory();
    }

    private ContextResources resources(ExtensionContext context) {
        // Keyed by the context itself: a lookup from a test must not find its class's.
        return context.getStore(namespace).getOrComputeIfAbsent(RESOURCES + context.getUniqueId(),
                key -> new ContextResources(), ContextResources.class);
    }

    private void injectStaticFields(ExtensionContext context) {
        for (Field field : injectedFields(context.getRequiredTestClass())) {
            if (!Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            if (TEST_TYPES.contains(field.getType())) {
                throw new ExtensionConfigurationException("static field " + field + ": a " + field.getType()
                        .getSimpleName() + " is made for one test and closed after it; use an instance field");
            }
            set(field, null, context);
        }
    }

    private void injectFields(ExtensionContext context, Class<?> type, Object instance) {
        for (Field field : injectedFields(type)) {
            if (!Modifier.isStatic(field.getModifiers())) {
                set(field, instance, context);
            }
        }
    }

    /** Fields marked {@link InjectMikyu}, {@link MikyuUrl} or {@link BrokerUrl}, superclasses' included. */
    private static List<Field> injectedFields(Class<?> type) {
        Set<Field> fields = new LinkedHashSet<>();
        for (Class<? extends Annotation> marker : List.of(InjectMikyu.class, MikyuUrl.class, BrokerUrl.class)) {
            fields.addAll(AnnotationSupport.findAnnotatedFields(type, marker));
        }
        return List.copyOf(fields);
    }

    private void set(Field field, Object instance, ExtensionContext context) {
        if (Modifier.isFinal(field.getModifiers())) {
            throw new ExtensionConfigurationException("field " + field + " is final: mikyu cannot set it");
        }
        Object value;
        try {
            value = valueFor(field.getType(), field, context);
        } catch (ExtensionConfigurationException e) {
            throw new ExtensionConfigurationException("field " + field + ": " + e.getMessage(), e);
        }
        try {
            field.setAccessible(true);
            field.set(instance, value);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExtensionConfigurationException("cannot set field " + field + ": " + e.getMessage(), e);
        }
    }

    // ---- accessors for @RegisterExtension users

    /**
     * The open store's JMS URL.
     *
     * @return the {@code vm://} URL with the test's options
     */
    public String url() {
        return current().url();
    }

    /**
     * The connection factory on the open store.
     *
     * @return the factory on its {@code vm://} URL
     */
    public ConnectionFactory connectionFactory() {
        return current().connectionFactory();
    }

    /**
     * The engine API on the open store.
     *
     * @return the store (its {@code close()} does nothing)
     */
    public Mikyu mikyu() {
        return current().mikyu();
    }

    /**
     * The helpers on the open store.
     *
     * @return its queue helpers
     */
    public MikyuQueues queues() {
        return current().queues();
    }

    /**
     * The broker serving the open store; the broker option only.
     *
     * @return its address and JMS URL
     */
    public MikyuBroker broker() {
        return current().broker();
    }

    /**
     * The open store's temporary directory, deleted when the store closes.
     *
     * @return the directory
     */
    public Path directory() {
        return current().directory();
    }

    private TemporaryStore current() {
        if (open.size() == 1) {
            return open.iterator().next();
        }
        throw new IllegalStateException(open.isEmpty()
                ? "no mikyu test store is open now: call this from a test or a @BeforeEach/@AfterEach method (with a"
                + " per-class store in a static field, also from @BeforeAll/@AfterAll)"
                : open.size() + " mikyu test stores are open (tests running in parallel): take the store's objects as"
                + " parameters instead");
    }

    @Override
    public String toString() {
        return "MikyuExtension" + (configured == null ? "" : configured);
    }

    /**
     * Options of a {@link MikyuExtension} in code; the defaults are {@link MikyuTest}'s. A static field's extension
     * gets one store for the class unless {@link #perTest()}; an instance field's one store per test.
     */
    public static final class Builder {
        private StoreLifecycle lifecycle = StoreLifecycle.PER_CLASS;
        private boolean lifecycleChosen;
        private Durability durability = Durability.ASYNC;
        private boolean broker;
        private final Map<String, String> options = new LinkedHashMap<>();
        private Duration timeout = StoreOptions.DEFAULT_TIMEOUT;
        private Path parent;

        private Builder() {
        }

        /**
         * One store for the test class; needs a static field.
         *
         * @return this builder
         */
        public Builder perClass() {
            return lifecycle(StoreLifecycle.PER_CLASS);
        }

        /**
         * A fresh store for every test.
         *
         * @return this builder
         */
        public Builder perTest() {
            return lifecycle(StoreLifecycle.PER_TEST);
        }

        /**
         * One store per class or per test.
         *
         * @param value the lifecycle
         * @return this builder
         */
        public Builder lifecycle(StoreLifecycle value) {
            lifecycle = Objects.requireNonNull(value, "lifecycle");
            lifecycleChosen = true;
            return this;
        }

        /**
         * Durability of PERSISTENT sends, acknowledgements and commits: {@code ASYNC} unless set.
         *
         * @param value the durability
         * @return this builder
         */
        public Builder durability(Durability value) {
            durability = Objects.requireNonNull(value, "durability");
            return this;
        }

        /**
         * Also serve the store on a free loopback port through mikyu's broker (needs {@code mikyu-broker}).
         *
         * @return this builder
         */
        public Builder broker() {
            broker = true;
            return this;
        }

        /**
         * A JMS URL option, e.g. {@code option("maxAttempts", "3")} (see {@code docs/jms.md}, URL options).
         *
         * @param name  the option's name
         * @param value its value
         * @return this builder
         */
        public Builder option(String name, String value) {
            options.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * How long {@link MikyuQueues} waits for a message, a drained queue or dead letters: 30 s unless set.
         *
         * @param value the deadline
         * @return this builder
         */
        public Builder timeout(Duration value) {
            timeout = Objects.requireNonNull(value, "timeout");
            return this;
        }

        /**
         * Where the temporary directories are made: {@code java.io.tmpdir} unless set.
         *
         * @param value the parent directory, made if it does not exist
         * @return this builder
         */
        public Builder directory(Path value) {
            parent = Objects.requireNonNull(value, "directory");
            return this;
        }

        /**
         * The extension.
         *
         * @return the extension with these options
         * @throws IllegalArgumentException for an unknown or invalid URL option, or one the extension sets itself
         */
        public MikyuExtension build() {
            return new MikyuExtension(new StoreOptions(lifecycle, lifecycleChosen, durability, broker, options,
                    timeout, parent));
        }
    }
}
