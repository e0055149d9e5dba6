package io.mikyu.jms.jndi;

import io.mikyu.jms.MikyuQueue;
import io.mikyu.jms.MikyuTopic;

import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.Context;
import javax.naming.InvalidNameException;
import javax.naming.Name;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NameParser;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.NotContextException;
import javax.naming.OperationNotSupportedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Hashtable;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The context {@link MikyuInitialContextFactory} returns: a flat, fixed map from JNDI names to administered objects,
 * plus the {@code dynamicQueues/} and {@code dynamicTopics/} namespaces. A name is its {@link CompositeName}'s
 * components joined by {@code /}, so {@code queue.jms/orders} is found as {@code "jms/orders"} and as
 * {@code new CompositeName("jms/orders")}. Not thread-confined: the map is never changed after creation.
 */
final class ReadOnlyContext implements Context {

    static final String DYNAMIC_QUEUES = "dynamicQueues";
    static final String DYNAMIC_TOPICS = "dynamicTopics";
    private static final NameParser PARSER = CompositeName::new;

    private final Hashtable<Object, Object> environment;
    private final Map<String, Object> bindings;

    ReadOnlyContext(Hashtable<Object, Object> environment, Map<String, Object> bindings) {
        this.environment = environment;
        this.bindings = Collections.unmodifiableMap(bindings);
    }

    @Override
    public Object lookup(Name name) throws NamingException {
        if (name.isEmpty()) {
            return new ReadOnlyContext(new Hashtable<>(environment), bindings);
        }
        String key = flatten(name);
        Object bound = bindings.get(key);
        if (bound != null) {
            return bound;
        }
        String rest = name.size() > 1 ? flatten(name.getSuffix(1)) : "";
        if (!rest.isEmpty()) {
            if (name.get(0).equals(DYNAMIC_QUEUES)) {
                return new MikyuQueue(rest);
            }
            if (name.get(0).equals(DYNAMIC_TOPICS)) {
                return new MikyuTopic(rest);
            }
        }
        throw notFound(name, key);
    }

    @Override
    public Object lookup(String name) throws NamingException {
        return lookup(parse(name));
    }

    @Override
    public Object lookupLink(Name name) throws NamingException {
        return lookup(name);
    }

    @Override
    public Object lookupLink(String name) throws NamingException {
        return lookup(name);
    }

    @Override
    public NamingEnumeration<NameClassPair> list(Name name) throws NamingException {
        checkIsRoot(name);
        List<NameClassPair> out = new ArrayList<>(bindings.size());
        bindings.forEach((n, o) -> out.add(new NameClassPair(n, o.getClass().getName())));
        return new ListEnumeration<>(out);
    }

    @Override
    public NamingEnumeration<NameClassPair> list(String name) throws NamingException {
        return list(parse(name));
    }

    @Override
    public NamingEnumeration<Binding> listBindings(Name name) throws NamingException {
        checkIsRoot(name);
        List<Binding> out = new ArrayList<>(bindings.size());
        bindings.forEach((n, o) -> out.add(new Binding(n, o.getClass().getName(), o)));
        return new ListEnumeration<>(out);
    }

    @Override
    public NamingEnumeration<Binding> listBindings(String name) throws NamingException {
        return listBindings(parse(name));
    }

    private void checkIsRoot(Name name) throws NamingException {
        if (name.isEmpty()) {
            return;
        }
        String key = flatten(name);
        if (bindings.containsKey(key)) {
            NotContextException e = new NotContextException("'" + key + "' is bound to an object, not a context: "
                    + "only the root context can be listed");
            e.setRemainingName(name);
            throw e;
        }
        throw notFound(name, key);
    }

    private NameNotFoundException notFound(Name name, String key) {
        NameNotFoundException e = new NameNotFoundException("'" + key + "' is not bound; bound names: "
                + (bindings.isEmpty() ? "none" : String.join(", ", bindings.keySet()))
                + "; " + DYNAMIC_QUEUES + "/<name> and " + DYNAMIC_TOPICS + "/<name> name any destination");
        e.setRemainingName(name);
        return e;
    }

    private static String flatten(Name name) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < name.size(); i++) {
            if (i > 0) {
                sb.append('/');
            }
            sb.append(name.get(i));
        }
        return sb.toString();
    }

    private static Name parse(String name) throws InvalidNameException {
        return new CompositeName(name);
    }

    // ---- read-only: nothing can be bound, renamed or created ----

    private static OperationNotSupportedException readOnly(String operation, Object name) {
        return new OperationNotSupportedException("the mikyu JNDI context is read-only (it is built from its "
                + "environment and jndi.properties): cannot " + operation + " '" + name + "'");
    }

    @Override
    public void bind(Name name, Object obj) throws NamingException {
        throw readOnly("bind", name);
    }

    @Override
    public void bind(String name, Object obj) throws NamingException {
        throw readOnly("bind", name);
    }

    @Override
    public void rebind(Name name, Object obj) throws NamingException {
        throw readOnly("rebind", name);
    }

    @Override
    public void rebind(String name, Object obj) throws NamingException {
        throw readOnly("rebind", name);
    }

    @Override
    public void unbind(Name name) throws NamingException {
        throw readOnly("unbind", name);
    }

    @Override
    public void unbind(String name) throws NamingException {
        throw readOnly("unbind", name);
    }

    @Override
    public void rename(Name oldName, Name newName) throws NamingException {
        throw readOnly("rename", oldName);
    }

    @Override
    public void rename(String oldName, String newName) throws NamingException {
        throw readOnly("rename", oldName);
    }

    @Override
    public void destroySubcontext(Name name) throws NamingException {
        throw readOnly("destroy the subcontext", name);
    }

    @Override
    public void destroySubcontext(String name) throws NamingException {
        throw readOnly("destroy the subcontext", name);
    }

    @Override
    public Context createSubcontext(Name name) throws NamingException {
        throw readOnly("create the subcontext", name);
    }

    @Override
    public Context createSubcontext(String name) throws NamingException {
        throw readOnly("create the subcontext", name);
    }

    // ---- names and environment ----

    @Override
    public NameParser getNameParser(Name name) {
        return PARSER;
    }

    @Override
    public NameParser getNameParser(String name) {
        return PARSER;
    }

    @Override
    public Name composeName(Name name, Name prefix) throws NamingException {
        return ((Name) prefix.clone()).addAll(name);
    }

    @Override
    public String composeName(String name, String prefix) throws NamingException {
        return composeName(parse(name), parse(prefix)).toString();
    }

    /** Changes this context's copy of the environment only; the bindings stay as they were created. */
    @Override
    public Object addToEnvironment(String propName, Object propVal) {
        return environment.put(propName, propVal);
    }

    @Override
    public Object removeFromEnvironment(String propName) {
        return environment.remove(propName);
    }

    @Override
    public Hashtable<?, ?> getEnvironment() {
        return new Hashtable<>(environment);
    }

    /** Holds no resources: the connection factories it hands out open their engines only with a connection. */
    @Override
    public void close() {
    }

    @Override
    public String getNameInNamespace() {
        return "";
    }

    private static final class ListEnumeration<T> implements NamingEnumeration<T> {
        private final Iterator<T> it;

        ListEnumeration(List<T> items) {
            this.it = items.iterator();
        }

        @Override
        public T next() {
            return nextElement();
        }

        @Override
        public boolean hasMore() {
            return it.hasNext();
        }

        @Override
        public void close() {
        }

        @Override
        public boolean hasMoreElements() {
            return it.hasNext();
        }

        @Override
        public T nextElement() {
            if (!it.hasNext()) {
                throw new NoSuchElementException();
            }
            return it.next();
        }
    }
}
