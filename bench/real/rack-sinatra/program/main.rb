# Provokes real rack 2.2.22 and sinatra 3.0.5 errors; see ../real-ruby.sh.
# Each failure is printed as Ruby prints an uncaught error
# (Exception#full_message); the last one is left uncaught.
require "rack"
require "rack/lint"
require "rack/mock"
require "sinatra/base"
require "stringio"

def attempt
  yield
rescue Exception => e
  $stderr.puts e.full_message(highlight: false, order: :top)
end

def env_with(overrides)
  Rack::MockRequest.env_for("/").merge(overrides)
end

ok = ->(_env) { [200, { "Content-Type" => "text/plain" }, ["ok"]] }

# Query strings.
attempt { Rack::Utils.parse_nested_query("a=1&a[b]=2") }
attempt { Rack::Utils.parse_nested_query("a[]=1&a[b]=2") }
attempt { Rack::QueryParser.make_default(8, 100).parse_nested_query("abcdefghij=1") }
attempt { Rack::QueryParser.make_default(65536, 100, params_limit: 3).parse_nested_query("a=1&b=2&c=3&d=4") }
attempt { Rack::QueryParser.make_default(65536, 3).parse_nested_query("a[b][c][d]=1") }

# Multipart bodies.
multipart = lambda do |body, length: body.bytesize, headers: {}|
  env = Rack::MockRequest.env_for("/", { "CONTENT_TYPE" => "multipart/form-data; boundary=AaB03x",
                                         "CONTENT_LENGTH" => length.to_s, :input => StringIO.new(body) }.merge(headers))
  Rack::Multipart.parse_multipart(env)
end
part = "--AaB03x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nshort"
attempt { multipart.call(part) }
attempt { multipart.call(part, length: part.bytesize + 50) }
attempt { multipart.call("x" * 20000) }
attempt do
  env = Rack::MockRequest.env_for("/", "CONTENT_TYPE" => "multipart/form-data; boundary =AaB03x",
                                       :input => StringIO.new("--AaB03x--\r\n"))
  Rack::Multipart.parse_multipart(env)
end

# Rack::Lint on bad environments and responses.
attempt { Rack::Lint.new(ok).call(env_with("REQUEST_METHOD" => 1)) }
attempt { Rack::Lint.new(ok).call(env_with("REQUEST_METHOD" => "GE T")) }
attempt { Rack::Lint.new(ok).call(env_with("SERVER_NAME" => nil).tap { |e| e.delete("SERVER_NAME") }) }
attempt { Rack::Lint.new(->(_env) { [200, {}] }).call(env_with({})) }

# Builder, status codes, mock requests.
attempt { Rack::Builder.new {}.to_app }
attempt { Rack::Utils.status_code(:bogus) }
attempt { Rack::MockRequest.new(ok).get("http://exa mple.com/") }
attempt { Rack::Utils.set_cookie_header!({}, "session", { value: "x", same_site: :sideways }) }

# Sinatra.
class App < Sinatra::Base
  set :raise_errors, true
  set :show_exceptions, false
  get("/type") { content_type :bogus }
  get("/etag") { etag "v1", :medium }
  get("/render") { render :nosuchengine, "x" }
end
mock = Rack::MockRequest.new(App)
%w[/type /etag /render].each { |path| attempt { mock.get(path) } }

# Left uncaught: Ruby prints it and exits 1.
Rack::Utils.parse_nested_query("x[]=1&x[y]=2")
