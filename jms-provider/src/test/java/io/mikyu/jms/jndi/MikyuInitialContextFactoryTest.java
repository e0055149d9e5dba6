package io.mikyu.jms.jndi;

import io.mikyu.jms.ConnectionFactoryObjectFactory;
import io.mikyu.jms.DestinationObjectFactory;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.MikyuQueue;
import io.mikyu.jms.MikyuTopic;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.NotContextException;
import javax.naming.OperationNotSupportedException;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.spi.NamingManager;
import javax.naming.spi.ObjectFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Through {@code new InitialContext(env)}, as applications and the TCK use it. No connection is created: the
 * factories are only looked up. The test class path holds a {@code jndi.properties} with one queue,
 * {@code fromResourceFile}, to show that the JDK merges that file into the environment.
 */
class MikyuInitialContextFactoryTest {

    private final List<Context> opened = new ArrayList<>();

    @AfterEach
    void closeContexts() throws NamingException {
        for (Context c : opened) {
            c.close();
        }
    }

    private Context context(String... keyValues) throws NamingException {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, MikyuInitialContextFactory.class.getName());
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        Context c = new InitialContext(env);
        opened.add(c);
        return c;
    }

    @Test
    void shouldBindAConnectionFactoryForEachConnectionFactoryKey() throws Exception {
        Context ctx = context("connectionFactory.MyConnectionFactory", "vm://target/jndi-a",
                "connectionFactory.DURABLE_SUB_CONNECTION_FACTORY", "vm://target/jndi-a?clientID=cts");

        Object plain = ctx.lookup("MyConnectionFactory");
        Object durable = ctx.lookup("DURABLE_SUB_CONNECTION_FACTORY");

        assertThat(plain).isInstanceOf(ConnectionFactory.class).isInstanceOf(QueueConnectionFactory.class)
                .isInstanceOf(TopicConnectionFactory.class);
        assertThat(((MikyuConnectionFactory) plain).getURL()).isEqualTo("vm://target/jndi-a");
        assertThat(((MikyuConnectionFactory) durable).getURL()).isEqualTo("vm://target/jndi-a?clientID=cts");
    }

    @Test
    void shouldBindQueuesAndTopicsUnderTheirJndiNames() throws Exception {
        Context ctx = context("queue.MY_QUEUE", "orders", "topic.MY_TOPIC", "prices", "queue.jms/audit", "audit");

        assertThat(ctx.lookup("MY_QUEUE")).isInstanceOf(Queue.class).isEqualTo(new MikyuQueue("orders"));
        assertThat(((Queue) ctx.lookup("MY_QUEUE")).getQueueName()).isEqualTo("orders");
        assertThat(ctx.lookup("MY_TOPIC")).isInstanceOf(Topic.class).isEqualTo(new MikyuTopic("prices"));
        assertThat(ctx.lookup("jms/audit")).isEqualTo(new MikyuQueue("audit"));
        assertThat(ctx.lookup(new CompositeName("jms/audit"))).isEqualTo(new MikyuQueue("audit"));
    }

    @Test
    void shouldLookUpTheSameObjectByStringAndByName() throws Exception {
        Context ctx = context("topic.MY_TOPIC", "prices");

        assertThat(ctx.lookup(new CompositeName("MY_TOPIC"))).isSameAs(ctx.lookup("MY_TOPIC"));
    }

    @Test
    void shouldBindTheDefaultConnectionFactoryWhenNoneIsConfigured() throws Exception {
        Context ctx = context("queue.MY_QUEUE", "orders");

        assertThat(((MikyuConnectionFactory) ctx.lookup("ConnectionFactory")).getURL())
                .isEqualTo(MikyuConnectionFactory.DEFAULT_URL);
    }

    @Test
    void shouldNotBindTheDefaultConnectionFactoryWhenOneIsConfigured() throws Exception {
        Context ctx = context("connectionFactory.Mine", "vm://target/jndi-b");

        assertThatThrownBy(() -> ctx.lookup("ConnectionFactory")).isInstanceOf(NameNotFoundException.class);
    }

    @Test
    void shouldMergeJndiPropertiesFromTheClassPath() throws Exception {
        Context ctx = context();

        assertThat(ctx.lookup("fromResourceFile")).isEqualTo(new MikyuQueue("resource-file-queue"));
        assertThat(environment(ctx)).containsEntry("queue.fromResourceFile", "resource-file-queue");
    }

    @Test
    void shouldLetTheEnvironmentOverrideJndiProperties() throws Exception {
        Context ctx = context("queue.fromResourceFile", "from-env");

        assertThat(ctx.lookup("fromResourceFile")).isEqualTo(new MikyuQueue("from-env"));
    }

    @Test
    void shouldCreateDynamicQueuesAndTopicsOnLookup() throws Exception {
        Context ctx = context();

        assertThat(ctx.lookup("dynamicQueues/work")).isInstanceOf(Queue.class).isEqualTo(new MikyuQueue("work"));
        assertThat(ctx.lookup("dynamicTopics/news")).isInstanceOf(Topic.class).isEqualTo(new MikyuTopic("news"));
        assertThat(ctx.lookup("dynamicQueues/work/dlq")).isEqualTo(new MikyuQueue("work/dlq"));
        assertThat(ctx.lookup(new CompositeName("dynamicTopics/news"))).isEqualTo(new MikyuTopic("news"));
    }

    @Test
    void shouldRefuseADynamicNameWithoutADestination() throws Exception {
        Context ctx = context();

        assertThatThrownBy(() -> ctx.lookup("dynamicQueues")).isInstanceOf(NameNotFoundException.class);
        assertThatThrownBy(() -> ctx.lookup("dynamicTopics/")).isInstanceOf(NameNotFoundException.class);
    }

    @Test
    void shouldNameWhatWasLookedUpAndWhatIsBoundWhenANameIsUnknown() throws Exception {
        Context ctx = context("queue.MY_QUEUE", "orders", "topic.MY_TOPIC", "prices");

        assertThatThrownBy(() -> ctx.lookup("MY_QUEUEE"))
                .isInstanceOf(NameNotFoundException.class)
                .hasMessageContaining("'MY_QUEUEE'")
                .hasMessageContaining("ConnectionFactory, MY_QUEUE, MY_TOPIC, fromResourceFile")
                .hasMessageContaining("dynamicQueues/<name>");
    }

    @Test
    void shouldReportABadUrlAsANamingExceptionWithTheCause() {
        assertThatThrownBy(() -> context("connectionFactory.Broken", "http://nowhere"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("connectionFactory.Broken")
                .hasCauseInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> context("connectionFactory.Typo", "vm://target/jndi-c?clinetID=x"))
                .isInstanceOf(NamingException.class)
                .hasMessageContaining("clinetID")
                .hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseAJndiNameBoundTwiceOrLeftEmpty() {
        assertThatThrownBy(() -> context("queue.X", "a", "topic.X", "b"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'X' is bound twice");
        assertThatThrownBy(() -> context("queue.", "a"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("names no JNDI name");
        assertThatThrownBy(() -> context("topic.T", ""))
                .isInstanceOf(ConfigurationException.class);
    }

    @Test
    void shouldRefuseEveryChange() throws Exception {
        Context ctx = context("queue.MY_QUEUE", "orders");
        MikyuQueue q = new MikyuQueue("other");

        assertThatThrownBy(() -> ctx.bind("other", q)).isInstanceOf(OperationNotSupportedException.class);
        assertThatThrownBy(() -> ctx.bind(new CompositeName("other"), q))
                .isInstanceOf(OperationNotSupportedException.class);
        assertThatThrownBy(() -> ctx.rebind("MY_QUEUE", q)).isInstanceOf(OperationNotSupportedException.class);
        assertThatThrownBy(() -> ctx.unbind("MY_QUEUE")).isInstanceOf(OperationNotSupportedException.class);
        assertThatThrownBy(() -> ctx.rename("MY_QUEUE", "Q")).isInstanceOf(OperationNotSupportedException.class);
        assertThatThrownBy(() -> ctx.createSubcontext("jms")).isInstanceOf(OperationNotSupportedException.class);
        assertThatThrownBy(() -> ctx.destroySubcontext("jms")).isInstanceOf(OperationNotSupportedException.class);
        assertThat(ctx.lookup("MY_QUEUE")).isEqualTo(new MikyuQueue("orders"));
    }

    @Test
    void shouldListTheRootBindingsInNameOrder() throws Exception {
        Context ctx = context("topic.b", "prices", "queue.a", "orders");

        List<String> names = new ArrayList<>();
        for (NamingEnumeration<NameClassPair> e = ctx.list(""); e.hasMore(); ) {
            NameClassPair p = e.next();
            names.add(p.getName() + "=" + p.getClassName());
        }
        Map<String, Object> objects = new java.util.LinkedHashMap<>();
        for (NamingEnumeration<Binding> e = ctx.listBindings(new CompositeName()); e.hasMore(); ) {
            Binding b = e.next();
            objects.put(b.getName(), b.getObject());
        }

        assertThat(names).containsExactly("ConnectionFactory=" + MikyuConnectionFactory.class.getName(),
                "a=" + MikyuQueue.class.getName(), "b=" + MikyuTopic.class.getName(),
                "fromResourceFile=" + MikyuQueue.class.getName());
        assertThat(objects).containsKeys("ConnectionFactory", "a", "b", "fromResourceFile")
                .containsEntry("a", new MikyuQueue("orders")).containsEntry("b", new MikyuTopic("prices"));
    }

    @Test
    void shouldListOnlyTheRoot() throws Exception {
        Context ctx = context("queue.a", "orders");

        assertThatThrownBy(() -> ctx.list("a")).isInstanceOf(NotContextException.class);
        assertThatThrownBy(() -> ctx.listBindings("nothing")).isInstanceOf(NameNotFoundException.class);
    }

    @Test
    void shouldParseAndComposeCompositeNames() throws Exception {
        Context ctx = context();
        // InitialContext answers composeName itself; the provider's root is what an empty name looks up
        Context root = (Context) ctx.lookup("");

        assertThat(ctx.getNameParser("").parse("jms/orders")).isEqualTo(new CompositeName("jms/orders"));
        assertThat(root.composeName("orders", "jms")).isEqualTo("jms/orders");
        assertThat(root.composeName(new CompositeName("orders"), new CompositeName("jms")))
                .isEqualTo(new CompositeName("jms/orders"));
        assertThat(root.getNameInNamespace()).isEmpty();
        assertThat(root.lookup("dynamicQueues/work")).isEqualTo(new MikyuQueue("work"));
        root.close();
    }

    @Test
    void shouldReturnACopyOfItsEnvironment() throws Exception {
        Context ctx = context("queue.MY_QUEUE", "orders");

        Hashtable<?, ?> env = ctx.getEnvironment();

        assertThat(environment(ctx))
                .containsEntry(Context.INITIAL_CONTEXT_FACTORY, MikyuInitialContextFactory.class.getName())
                .containsEntry("queue.MY_QUEUE", "orders");
        env.clear();
        assertThat(environment(ctx)).containsKey("queue.MY_QUEUE");
    }

    @Test
    void shouldStillServeLookupsAfterAnotherContextIsClosed() throws Exception {
        Context first = context("queue.MY_QUEUE", "orders");
        Context second = context("queue.MY_QUEUE", "orders");

        first.close();
        first.close();

        assertThat(second.lookup("MY_QUEUE")).isEqualTo(new MikyuQueue("orders"));
    }

    @Test
    void shouldSerializeEveryBoundObject() throws Exception {
        Context ctx = context("connectionFactory.CF", "vm://target/jndi-d?clientID=cts", "queue.Q", "orders",
                "topic.T", "prices");

        MikyuConnectionFactory cf = (MikyuConnectionFactory) roundTrip(ctx.lookup("CF"));

        assertThat(cf.getURL()).isEqualTo("vm://target/jndi-d?clientID=cts");
        assertThat(roundTrip(ctx.lookup("Q"))).isEqualTo(new MikyuQueue("orders"));
        assertThat(roundTrip(ctx.lookup("T"))).isEqualTo(new MikyuTopic("prices"));
        assertThat(roundTrip(ctx.lookup("dynamicQueues/work"))).isEqualTo(new MikyuQueue("work"));
    }

    @Test
    void shouldRebuildEveryBoundObjectFromItsReference() throws Exception {
        Context ctx = context("connectionFactory.CF", "vm://target/jndi-e?clientID=cts", "queue.Q", "orders",
                "topic.T", "prices");

        Object cf = rebuild(ctx.lookup("CF"), new ConnectionFactoryObjectFactory());

        assertThat(cf).isInstanceOf(MikyuConnectionFactory.class);
        assertThat(((MikyuConnectionFactory) cf).getURL()).isEqualTo("vm://target/jndi-e?clientID=cts");
        assertThat(rebuild(ctx.lookup("Q"), new DestinationObjectFactory())).isEqualTo(new MikyuQueue("orders"));
        assertThat(rebuild(ctx.lookup("T"), new DestinationObjectFactory())).isEqualTo(new MikyuTopic("prices"));
        assertThat(rebuild(ctx.lookup("dynamicTopics/news"), new DestinationObjectFactory()))
                .isEqualTo(new MikyuTopic("news"));
    }

    private static Map<Object, Object> environment(Context ctx) throws NamingException {
        return new java.util.HashMap<>(ctx.getEnvironment());
    }

    private static Object roundTrip(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }

    private static Object rebuild(Object bound, ObjectFactory expectedFactory) throws Exception {
        Reference ref = ((Referenceable) bound).getReference();
        assertThat(ref.getFactoryClassName()).isEqualTo(expectedFactory.getClass().getName());
        assertThat(ref.getClassName()).isEqualTo(bound.getClass().getName());
        // as a JNDI provider that stored the reference would: JNDI loads the factory the reference names
        return NamingManager.getObjectInstance(roundTrip(ref), null, null, new Hashtable<>());
    }
}
