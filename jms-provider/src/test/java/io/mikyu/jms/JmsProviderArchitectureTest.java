package io.mikyu.jms;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;

import java.util.Set;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The JMS provider's layering (docs/architecture.md, "Layering"): no package cycle, and of mikyu only the engine's
 * API and the selectors; a broker is reached through {@code Mikyu.dial}, not the network client's classes.
 */
@AnalyzeClasses(locations = JmsProviderArchitectureTest.ProductionClasses.class)
class JmsProviderArchitectureTest {

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("io.mikyu.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule usesTheEngineAndTheSelectorsOnly = noClasses().should().dependOnClassesThat(
            resideInAPackage("io.mikyu..").and(not(resideInAnyPackage("io.mikyu.engine..", "io.mikyu.selector..",
                    "io.mikyu.jms.."))));

    /**
     * The classic API objects are reached only through {@link ConnectionOpener} (registered in
     * {@code META-INF/services}): the factories naming them would close a cycle with the destinations they use.
     */
    @ArchTest
    static final ArchRule onlyTheClassicPackageUsesTheClassicObjects = noClasses().that()
            .resideOutsideOfPackage("io.mikyu.jms.classic..").should().dependOnClassesThat()
            .resideInAPackage("io.mikyu.jms.classic..");

    @ArchTest
    static final ArchRule usesNoEngineInternals = noClasses().should().dependOnClassesThat()
            .resideInAPackage("io.mikyu.engine.internal..");

    /** This module's production classes: the directory (or jar) that holds {@link MikyuConnectionFactory}, and nothing else. */
    static final class ProductionClasses implements LocationProvider {

        @Override
        public Set<Location> get(Class<?> testClass) {
            return Set.of(Location.of(MikyuConnectionFactory.class.getProtectionDomain().getCodeSource().getLocation()));
        }
    }
}
