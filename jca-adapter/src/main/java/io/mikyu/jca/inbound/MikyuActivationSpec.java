package io.mikyu.jca.inbound;

import io.mikyu.jca.settings.ConnectionSettings;
import io.mikyu.jca.settings.OwningAdapter;
import io.mikyu.jca.settings.SettingsLayer;
import io.mikyu.selector.Selector;
import io.mikyu.selector.SelectorSyntaxException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a message-driven bean receives: the activation properties Jakarta Messaging 3.1 §13.1 defines
 * ({@code destinationLookup}, {@code connectionFactoryLookup}, {@code destinationType}, {@code messageSelector},
 * {@code acknowledgeMode}, {@code subscriptionDurability}, {@code subscriptionName}, {@code clientId}) and mikyu's
 * own: {@code destination} (a queue or topic by name, without JNDI), {@code maxSession}, {@code shareSubscriptions},
 * {@code maxAttempts}, {@code redeliveryDelay}, {@code url} / {@code user} / {@code password} (overriding the
 * adapter's), {@code setupAttempts} / {@code setupInterval} (how the activation retries while mikyu cannot be
 * reached). {@link #validate()} says everything that is wrong at once.
 */
public class MikyuActivationSpec implements ActivationSpec, ResourceAdapterAssociation, Serializable {

    private static final long serialVersionUID = 1L;

    static final String QUEUE = "jakarta.jms.Queue";
    static final String TOPIC = "jakarta.jms.Topic";
    public static final int DEFAULT_MAX_SESSION = 15;
    public static final int DEFAULT_SETUP_ATTEMPTS = -1;
    public static final long DEFAULT_SETUP_INTERVAL = 2_000;

    private transient OwningAdapter adapter;

    private String destinationLookup;
    private String connectionFactoryLookup;
    private String destinationType;
    private String messageDestinationType;
    private String destination;
    private String messageSelector;
    private String acknowledgeMode = "Auto-acknowledge";
    private String subscriptionDurability = "NonDurable";
    private String subscriptionName;
    private String clientId;
    private Integer maxSession = DEFAULT_MAX_SESSION;
    private Boolean shareSubscriptions = false;
    private Integer maxAttempts;
    private Integer redeliveryDelay;
    private String url;
    private String user;
    private String password;
    private Integer setupAttempts = DEFAULT_SETUP_ATTEMPTS;
    private Long setupInterval = DEFAULT_SETUP_INTERVAL;

    // ------------------------------------------------------------------------------------------------ validation

    /**
     * Checks the properties together; the message names every problem.
     *
     * @throws InvalidPropertyException if anything is wrong
     */
    @Override
    public void validate() throws InvalidPropertyException {
        List<String> problems = new ArrayList<>();
        if (isBlank(destination) && isBlank(destinationLookup)) {
            problems.add("no destination: set destination (the name of a mikyu queue or topic) or destinationLookup "
                    + "(the JNDI name of a jakarta.jms.Queue or Topic)");
        }
        String type = declaredType();
        if (type != null && !type.equals(QUEUE) && !type.equals(TOPIC)) {
            problems.add("destinationType '" + type + "' is neither jakarta.jms.Queue nor jakarta.jms.Topic");
        }
        if (!isBlank(destinationType) && !isBlank(messageDestinationType)
                && !normalType(destinationType).equals(normalType(messageDestinationType))) {
            problems.add("destinationType '" + destinationType + "' and messageDestinationType '"
                    + messageDestinationType + "' disagree");
        }
        if (acknowledgeModeOrNull() == null) {
            problems.add("acknowledgeMode '" + acknowledgeMode + "' is neither Auto-acknowledge nor "
                    + "Dups-ok-acknowledge");
        }
        Boolean durable = durableOrNull();
        if (durable == null) {
            problems.add("subscriptionDurability '" + subscriptionDurability + "' is neither Durable nor NonDurable");
        } else if (durable) {
            if (QUEUE.equals(type)) {
                problems.add("subscriptionDurability Durable is for topics, and destinationType is jakarta.jms.Queue");
            }
            if (isBlank(subscriptionName)) {
                problems.add("a durable subscription needs a subscriptionName");
            }
        } else if (Boolean.TRUE.equals(shareSubscriptions) && !QUEUE.equals(type) && isBlank(subscriptionName)) {
            problems.add("a shared subscription (shareSubscriptions=true) needs a subscriptionName");
        }
        if (!isBlank(messageSelector)) {
            try {
                Selector.compile(messageSelector);
            } catch (SelectorSyntaxException e) {
                problems.add("messageSelector '" + messageSelector + "' is not valid: " + e.getMessage());
            }
        }
        if (maxSession == null || maxSession < 1) {
            problems.add("maxSession must be at least 1, not " + maxSession);
        }
        if (maxAttempts != null && maxAttempts < 1) {
            problems.add("maxAttempts must be at least 1, not " + maxAttempts);
        }
        if (redeliveryDelay != null && redeliveryDelay < 0) {
            problems.add("redeliveryDelay must not be negative, not " + redeliveryDelay);
        }
        if (setupAttempts == null || setupAttempts == 0 || setupAttempts < -1) {
            problems.add("setupAttempts must be -1 (until deactivated) or at least 1, not " + setupAttempts);
        }
        if (setupInterval == null || setupInterval < 0) {
            problems.add("setupInterval must not be negative, not " + setupInterval);
        }
        if (isBlank(connectionFactoryLookup)) {
            try {
                settings(null); // the URL with the options: the provider's own checks
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidPropertyException("mikyu activation of " + describeDestination() + ": "
                    + String.join("; ", problems));
        }
    }

    // ------------------------------------------------------------------------------------------------ derived

    /** The adapter's settings, or those of a looked-up connection factory, under this spec's overrides. */
    ConnectionSettings settings(SettingsLayer connectionFactory) {
        Map<String, String> options = new LinkedHashMap<>();
        if (maxAttempts != null) {
            options.put("maxAttempts", maxAttempts.toString());
        }
        if (redeliveryDelay != null) {
            options.put("redeliveryDelay", redeliveryDelay.toString());
        }
        if (!isBlank(clientId)) {
            options.put("clientID", clientId);
        }
        SettingsLayer own = SettingsLayer.of(blankToNull(url), blankToNull(user), password, options);
        return connectionFactory != null ? ConnectionSettings.resolve(connectionFactory, own)
                : ConnectionSettings.resolve(adapter, own);
    }

    /** jakarta.jms.Queue, jakarta.jms.Topic, something else as given, or null if not said. */
    String declaredType() {
        String t = !isBlank(destinationType) ? destinationType : messageDestinationType;
        return isBlank(t) ? null : normalType(t);
    }

    private static String normalType(String t) {
        String s = t.trim();
        return switch (s) {
            case "jakarta.jms.Queue", "javax.jms.Queue", "Queue", "queue" -> QUEUE;
            case "jakarta.jms.Topic", "javax.jms.Topic", "Topic", "topic" -> TOPIC;
            default -> s;
        };
    }

    /** Whether DUPS_OK_ACKNOWLEDGE semantics were asked for; null for an unknown value. */
    Boolean dupsOk() {
        return acknowledgeModeOrNull();
    }

    private Boolean acknowledgeModeOrNull() {
        if (isBlank(acknowledgeMode)) {
            return false;
        }
        String m = acknowledgeMode.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        return switch (m) {
            case "auto-acknowledge" -> false;
            case "dups-ok-acknowledge" -> true;
            default -> null;
        };
    }

    boolean durable() {
        return Boolean.TRUE.equals(durableOrNull());
    }

    private Boolean durableOrNull() {
        if (isBlank(subscriptionDurability)) {
            return false;
        }
        return switch (subscriptionDurability.trim().toLowerCase(Locale.ROOT)) {
            case "durable" -> true;
            case "nondurable", "non-durable" -> false;
            default -> null;
        };
    }

    String describeDestination() {
        return !isBlank(destination) ? "'" + destination + "'"
                : !isBlank(destinationLookup) ? "'" + destinationLookup + "' (JNDI)" : "(no destination)";
    }

    static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static String blankToNull(String s) {
        return isBlank(s) ? null : s.trim();
    }

    // ------------------------------------------------------------------------------------------------ JCA

    @Override
    public ResourceAdapter getResourceAdapter() {
        return adapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) throws ResourceException {
        if (!(ra instanceof OwningAdapter m)) {
            throw new ResourceException("a mikyu activation spec belongs to the mikyu resource adapter, not " + ra);
        }
        this.adapter = m;
    }

    OwningAdapter adapter() {
        return adapter;
    }

    // ------------------------------------------------------------------------------------------------ properties

    public String getDestinationLookup() {
        return destinationLookup;
    }

    public void setDestinationLookup(String destinationLookup) {
        this.destinationLookup = destinationLookup;
    }

    public String getConnectionFactoryLookup() {
        return connectionFactoryLookup;
    }

    public void setConnectionFactoryLookup(String connectionFactoryLookup) {
        this.connectionFactoryLookup = connectionFactoryLookup;
    }

    public String getDestinationType() {
        return destinationType;
    }

    public void setDestinationType(String destinationType) {
        this.destinationType = destinationType;
    }

    /** What some servers pass for {@code destinationType} (WildFly); the same values. */
    public String getMessageDestinationType() {
        return messageDestinationType;
    }

    public void setMessageDestinationType(String messageDestinationType) {
        this.messageDestinationType = messageDestinationType;
    }

    /** The mikyu queue or topic to receive from, by name (instead of {@code destinationLookup}). */
    public String getDestination() {
        return destination;
    }

    public void setDestination(String destination) {
        this.destination = destination;
    }

    public String getMessageSelector() {
        return messageSelector;
    }

    public void setMessageSelector(String messageSelector) {
        this.messageSelector = messageSelector;
    }

    public String getAcknowledgeMode() {
        return acknowledgeMode;
    }

    public void setAcknowledgeMode(String acknowledgeMode) {
        this.acknowledgeMode = acknowledgeMode;
    }

    public String getSubscriptionDurability() {
        return subscriptionDurability;
    }

    public void setSubscriptionDurability(String subscriptionDurability) {
        this.subscriptionDurability = subscriptionDurability;
    }

    public String getSubscriptionName() {
        return subscriptionName;
    }

    public void setSubscriptionName(String subscriptionName) {
        this.subscriptionName = subscriptionName;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    /** How many sessions deliver at once (15): queues and shared subscriptions; other subscriptions use one. */
    public Integer getMaxSession() {
        return maxSession;
    }

    public void setMaxSession(Integer maxSession) {
        this.maxSession = maxSession;
    }

    /** A topic subscription shared by the activation's sessions (and by other servers with the same name). */
    public Boolean getShareSubscriptions() {
        return shareSubscriptions;
    }

    public void setShareSubscriptions(Boolean shareSubscriptions) {
        this.shareSubscriptions = shareSubscriptions;
    }

    public Integer getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(Integer maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public Integer getRedeliveryDelay() {
        return redeliveryDelay;
    }

    public void setRedeliveryDelay(Integer redeliveryDelay) {
        this.redeliveryDelay = redeliveryDelay;
    }

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    /** Connection attempts before the activation gives up: -1 (the default) tries until it is deactivated. */
    public Integer getSetupAttempts() {
        return setupAttempts;
    }

    public void setSetupAttempts(Integer setupAttempts) {
        this.setupAttempts = setupAttempts;
    }

    /** Milliseconds between two connection attempts (2000). */
    public Long getSetupInterval() {
        return setupInterval;
    }

    public void setSetupInterval(Long setupInterval) {
        this.setupInterval = setupInterval;
    }

    @Override
    public String toString() {
        return "MikyuActivationSpec[" + describeDestination() + (durable() ? ", durable " + subscriptionName : "")
                + "]";
    }
}
