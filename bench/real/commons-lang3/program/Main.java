// Provokes real commons-lang3 3.12.0 errors; see ../real-java.sh.
import java.util.ArrayList;
import java.util.Collections;
import org.apache.commons.lang3.ArrayUtils;
import org.apache.commons.lang3.BooleanUtils;
import org.apache.commons.lang3.LocaleUtils;
import org.apache.commons.lang3.RandomStringUtils;
import org.apache.commons.lang3.Range;
import org.apache.commons.lang3.SerializationUtils;
import org.apache.commons.lang3.StringUtils;
import org.apache.commons.lang3.Validate;
import org.apache.commons.lang3.math.Fraction;
import org.apache.commons.lang3.math.NumberUtils;
import org.apache.commons.lang3.time.DateUtils;

public class Main {
    interface Case {
        void run() throws Exception;
    }

    static void attempt(Case c) {
        try {
            c.run();
        } catch (Exception e) {
            e.printStackTrace();
        }
    }

    static int parsePort(String s) {
        try {
            return NumberUtils.createNumber(s).intValue();
        } catch (NumberFormatException e) {
            throw new IllegalStateException("cannot read port from config", e);
        }
    }

    public static void main(String[] args) {
        attempt(() -> Validate.notNull(null));
        attempt(() -> Validate.isTrue(false));
        attempt(() -> Validate.notEmpty(Collections.emptyList()));
        attempt(() -> Validate.notBlank("  "));
        attempt(() -> Validate.inclusiveBetween(1, 10, 11));
        attempt(() -> Validate.validIndex(new String[] {"a"}, 5));
        attempt(() -> Validate.matchesPattern("abc", "\\d+"));
        attempt(() -> Validate.validState(false));
        attempt(() -> StringUtils.abbreviate("abcdefghij", 3));
        attempt(() -> StringUtils.abbreviate("abcdefghijklmno", 5, 6));
        attempt(() -> NumberUtils.createNumber("x1"));
        attempt(() -> LocaleUtils.toLocale("bogus"));
        attempt(() -> RandomStringUtils.random(-1));
        attempt(() -> ArrayUtils.remove(new int[] {1}, 5));
        attempt(() -> DateUtils.parseDate("x", "yyyy"));
        attempt(() -> BooleanUtils.toBoolean("maybe", "yes", "no"));
        attempt(() -> Range.between(null, 5));
        attempt(() -> Fraction.getFraction(1, 0));
        attempt(() -> Fraction.getFraction(0, 1).invert());
        attempt(() -> SerializationUtils.deserialize(new byte[] {0, 1, 2, 3}));
        attempt(() -> {
            ArrayList<Object> list = new ArrayList<>();
            list.add(new Object());
            SerializationUtils.serialize(list);
        });
        attempt(() -> parsePort("80x"));
        // The last one is not caught: the JVM prints it.
        Validate.exclusiveBetween(0L, 65536L, 70000L);
    }
}
