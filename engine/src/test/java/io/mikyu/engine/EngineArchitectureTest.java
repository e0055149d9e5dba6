package io.mikyu.engine;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchRule;

import java.util.Set;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The engine's layering (docs/architecture.md, "Layering"): its packages form no cycle, and it uses no other module.
 *
 * <p>Every package depends on the API package {@code io.mikyu.engine} (its values and exceptions), and the API
 * package depends on no other: {@link Mikyu#open} and {@link Mikyu#dial} reach their implementations through
 * services ({@link StoreOpener}, {@link Dialer}), and the types the API names live in it.
 */
@AnalyzeClasses(locations = EngineArchitectureTest.ProductionClasses.class)
class EngineArchitectureTest {

    @ArchTest
    static final ArchRule packagesFormNoCycle = slices().matching("io.mikyu.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule apiDependsOnNoOtherPackage = noClasses().that().resideInAPackage("io.mikyu.engine")
            .should().dependOnClassesThat(resideInAPackage("io.mikyu..").and(not(resideInAPackage("io.mikyu.engine"))));

    @ArchTest
    static final ArchRule usesNoOtherModule = noClasses().should()
            .dependOnClassesThat(resideInAPackage("io.mikyu..").and(not(resideInAPackage("io.mikyu.engine.."))));

    /** This module's production classes: the directory (or jar) that holds {@link Mikyu}, and nothing else. */
    static final class ProductionClasses implements LocationProvider {

        @Override
        public Set<Location> get(Class<?> testClass) {
            return Set.of(Location.of(Mikyu.class.getProtectionDomain().getCodeSource().getLocation()));
        }
    }
}
