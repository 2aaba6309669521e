<?php
// Provokes real errors in Debian's php-guzzlehttp-psr7 (2.4.5) and
// php-monolog (2.9.1), loaded from /usr/share/php: exactly the sources the
// test indexes. `php main.php caught` prints every caught error as
// `Class: message`; `php main.php NAME` lets one case escape uncaught, so
// PHP prints it as a fatal error with its stack trace (and `Next …` for
// the exceptions it was raised from).
require '/usr/share/php/GuzzleHttp/Psr7/autoload.php';
require '/usr/share/php/Monolog/autoload.php';

use GuzzleHttp\Psr7\BufferStream;
use GuzzleHttp\Psr7\HttpFactory;
use GuzzleHttp\Psr7\Message;
use GuzzleHttp\Psr7\MultipartStream;
use GuzzleHttp\Psr7\NoSeekStream;
use GuzzleHttp\Psr7\Request;
use GuzzleHttp\Psr7\Response;
use GuzzleHttp\Psr7\Stream;
use GuzzleHttp\Psr7\Uri;
use GuzzleHttp\Psr7\Utils;
use Monolog\Handler\RotatingFileHandler;
use Monolog\Handler\SocketHandler;
use Monolog\Handler\StreamHandler;
use Monolog\Handler\SyslogHandler;
use Monolog\Logger;
use Monolog\Processor\UidProcessor;
use Monolog\Registry;

$cases = [
    // Guzzle PSR-7.
    'uri-port' => fn () => (new Uri('http://example.com'))->withPort(99999),
    'uri-parse' => fn () => new Uri('http:///nohost'),
    'uri-from-parts' => fn () => Uri::fromParts(['host' => 'example.com', 'port' => 70000]),
    'uri-colon-path' => fn () => (new Uri())->withPath('a:b'),
    'response-status' => fn () => new Response(999),
    'request-method' => fn () => new Request('', 'http://example.com'),
    'header-name' => fn () => new Request('GET', '/', ['bad header' => 'x']),
    'stream-for' => fn () => Utils::streamFor([1]),
    'stream-resource' => fn () => new Stream('not a resource'),
    'buffer-seek' => fn () => (new BufferStream())->seek(10),
    'noseek-seek' => fn () => (new NoSeekStream(Utils::streamFor('abc')))->seek(1),
    'parse-response' => fn () => Message::parseResponse("garbage\r\n\r\n"),
    'multipart-key' => fn () => new MultipartStream([['name' => 'a']]),
    'fopen-missing' => fn () => Utils::tryFopen('/nonexistent/dir/file.txt', 'r'),
    'factory-mode' => fn () => (new HttpFactory())->createStreamFromFile('/nonexistent/file.txt', 'q'),
    // Monolog.
    'stream-dir' => function () {
        $log = new Logger('app');
        $log->pushHandler(new StreamHandler('/dev/null/logs/app.log'));
        $log->info('user logged in', ['user' => 42]);
    },
    'stream-handler' => function () {
        $log = new Logger('app');
        $log->pushHandler(new StreamHandler('/proc/errdex-app.log'));
        $log->warning('disk almost full');
    },
    'level-name' => fn () => Logger::toMonologLevel('bogus'),
    'level-get' => fn () => Logger::getLevelName(12345),
    'pop-handler' => fn () => (new Logger('app'))->popHandler(),
    'rotating-format' => fn () => (new RotatingFileHandler('/tmp/errdex-php.log'))->setFilenameFormat('{filename}', 'Y-m-d'),
    'rotating-date' => fn () => (new RotatingFileHandler('/tmp/errdex-php.log'))->setFilenameFormat('{filename}-{date}', 'd/m/Y'),
    'uid-length' => fn () => new UidProcessor(64),
    'socket-timeout' => fn () => (new SocketHandler('tcp://127.0.0.1:9'))->setTimeout(-1),
    'socket-connect' => function () {
        $log = new Logger('app');
        $log->pushHandler(new SocketHandler('tcp://127.0.0.1:9'));
        $log->error('payment failed');
    },
    'registry' => fn () => Registry::getInstance('billing'),
    'syslog-facility' => fn () => new SyslogHandler('app', 'bogus'),
    // PHP's own error, raised inside the library: not a site of the atlas.
    'type-error' => fn () => new Uri(['http://example.com']),
];

$which = $argv[1] ?? 'caught';
if ($which === 'caught') {
    foreach ($cases as $name => $case) {
        try {
            $case();
            echo "$name: no error\n";
        } catch (\Throwable $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    }
} else {
    $cases[$which]();
}
