package io.mikyu.jca;

import io.mikyu.jca.settings.ConnectionSettings;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * META-INF/ra.xml against the classes: every declared config property has a public setter and getter of its
 * declared type (WildFly refuses a property without them, WFLYJCA0074), every JavaBean property of those classes is
 * declared, and every class named exists and implements what the descriptor says.
 */
class RaXmlTest {

    private static final Path RA_XML = Path.of("src/main/rar/META-INF/ra.xml");
    private static final Path IRONJACAMAR_XML = Path.of("src/main/rar/META-INF/ironjacamar.xml");

    @Test
    void everyConfigPropertyHasASetterAndGetterOfItsType() throws Exception {
        Document doc = parse(RA_XML);
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (String owner : List.of("resourceadapter", "connection-definition", "activationspec", "adminobject")) {
            NodeList owners = doc.getElementsByTagNameNS("*", owner);
            assertThat(owners.getLength()).as(owner).isPositive();
            for (int i = 0; i < owners.getLength(); i++) {
                Element e = (Element) owners.item(i);
                Class<?> type = Class.forName(text(e, classElement(owner)));
                Set<String> declared = new TreeSet<>();
                for (Element p : children(e, "config-property")) {
                    String name = text(p, "config-property-name");
                    Class<?> propertyType = Class.forName(text(p, "config-property-type"));
                    declared.add(name);
                    checked++;
                    String cap = Character.toUpperCase(name.charAt(0)) + name.substring(1);
                    Method setter = method(type, "set" + cap, propertyType);
                    Method getter = method(type, "get" + cap);
                    if (setter == null) {
                        problems.add(type.getSimpleName() + ": no public set" + cap + "(" + propertyType.getName()
                                + ")");
                    }
                    if (getter == null || !getter.getReturnType().equals(propertyType)) {
                        problems.add(type.getSimpleName() + ": no public " + propertyType.getSimpleName() + " get"
                                + cap + "()");
                    }
                }
                for (PropertyDescriptor d : Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors()) {
                    if (d.getWriteMethod() != null && !declared.contains(d.getName())
                            && !declared.contains(Introspector.decapitalize(d.getName()))
                            && !d.getName().equals("resourceAdapter") && !d.getName().equals("reference")
                            && !d.getName().equals("logWriter")) {
                        problems.add(type.getSimpleName() + ": property " + d.getName() + " is not in ra.xml");
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(checked).isGreaterThan(100);
    }

    @Test
    void theClassesImplementWhatTheDescriptorSays() throws Exception {
        Document doc = parse(RA_XML);
        assertThat(ResourceAdapter.class).isAssignableFrom(
                Class.forName(text(doc.getDocumentElement(), "resourceadapter-class")));
        Element cd = (Element) doc.getElementsByTagNameNS("*", "connection-definition").item(0);
        assertThat(ManagedConnectionFactory.class).isAssignableFrom(
                Class.forName(text(cd, "managedconnectionfactory-class")));
        assertThat(Class.forName(text(cd, "connectionfactory-interface")))
                .isAssignableFrom(Class.forName(text(cd, "connectionfactory-impl-class")));
        assertThat(Class.forName(text(cd, "connection-interface")))
                .isAssignableFrom(Class.forName(text(cd, "connection-impl-class")));
        Element as = (Element) doc.getElementsByTagNameNS("*", "activationspec").item(0);
        assertThat(ActivationSpec.class).isAssignableFrom(Class.forName(text(as, "activationspec-class")));
        for (Element ao : children(doc.getDocumentElement(), "adminobject")) {
            Class<?> impl = Class.forName(text(ao, "adminobject-class"));
            assertThat(Class.forName(text(ao, "adminobject-interface"))).isAssignableFrom(impl);
            assertThat(java.io.Serializable.class).isAssignableFrom(impl);
            assertThat(javax.naming.Referenceable.class).isAssignableFrom(impl);
            assertThat(impl.getConstructor()).isNotNull();
        }
        for (String c : List.of(text(doc.getDocumentElement(), "resourceadapter-class"),
                text(cd, "managedconnectionfactory-class"), text(as, "activationspec-class"))) {
            Class<?> type = Class.forName(c);
            assertThat(Modifier.isPublic(type.getModifiers())).as(c).isTrue();
            assertThat(type.getConstructor()).as(c + " has a public no-argument constructor").isNotNull();
        }
        assertThat(doc.getDocumentElement().getAttribute("version")).isEqualTo("2.1");
        assertThat(doc.getDocumentElement().getNamespaceURI()).isEqualTo("https://jakarta.ee/xml/ns/jakartaee");
    }

    @Test
    void ironjacamarXmlNamesTheConnectionDefinition() throws Exception {
        Document doc = parse(IRONJACAMAR_XML);
        Element cd = (Element) doc.getElementsByTagName("connection-definition").item(0);
        assertThat(ManagedConnectionFactory.class).isAssignableFrom(Class.forName(cd.getAttribute("class-name")));
        assertThat(text(doc.getDocumentElement(), "transaction-support")).isEqualTo("XATransaction");
    }

    /**
     * The archive's WildFly defaults set only properties the adapter declares, each from a system property whose
     * default is the adapter's own: deployed as it is, the archive behaves as ra.xml says.
     */
    @Test
    void ironjacamarXmlSetsDeclaredAdapterPropertiesWithTheAdaptersDefaults() throws Exception {
        Element adapter = (Element) parse(RA_XML).getElementsByTagNameNS("*", "resourceadapter").item(0);
        Set<String> declared = new TreeSet<>();
        for (Element p : children(adapter, "config-property")) {
            declared.add(text(p, "config-property-name"));
        }
        List<Element> set = children(parse(IRONJACAMAR_XML).getDocumentElement(), "config-property");
        assertThat(set).extracting(e -> e.getAttribute("name")).containsExactly("url");
        for (Element p : set) {
            assertThat(declared).contains(p.getAttribute("name"));
        }
        assertThat(set.get(0).getTextContent().trim())
                .isEqualTo("${mikyu.url:" + ConnectionSettings.DEFAULT_URL + "}");
    }

    private static String classElement(String owner) {
        return switch (owner) {
            case "resourceadapter" -> "resourceadapter-class";
            case "connection-definition" -> "managedconnectionfactory-class";
            case "activationspec" -> "activationspec-class";
            default -> "adminobject-class";
        };
    }

    private static Method method(Class<?> type, String name, Class<?>... params) {
        try {
            Method m = type.getMethod(name, params);
            return Modifier.isPublic(m.getModifiers()) ? m : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Document parse(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(file.toFile());
    }

    /** Direct children of {@code e} named {@code name}. */
    private static List<Element> children(Element e, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && name.equals(c.getLocalName() != null ? c.getLocalName() : c.getTagName())) {
                out.add(c);
            }
        }
        return out;
    }

    /** The text of the first descendant {@code name} of {@code e}. */
    private static String text(Element e, String name) {
        NodeList l = e.getElementsByTagNameNS("*", name);
        if (l.getLength() == 0) {
            l = e.getElementsByTagName(name);
        }
        return l.item(0).getTextContent().trim();
    }
}
